import type { UpdateStatus } from '../../../engine/api';
import { useQuery } from '../server-state/use-query';

/** The app's own update status: read once, then kept current by main's `updates.changed` pushes. */
export function useUpdateStatus(): [UpdateStatus | null, (status: UpdateStatus) => void] {
  const { result, replace } = useQuery('updates.status', {});
  return [result?.ok ? result.value : null, replace];
}

/** One sentence on where updates stand, for Settings. */
export function describeUpdateStatus(status: UpdateStatus): string {
  switch (status.state) {
    case 'off':
      if (status.offReason === 'development')
        return 'Updates are off while the app runs from its source code.';
      if (status.offReason === 'no-update-source')
        return 'This copy of the app was built without a place to get updates from.';
      return 'Updates are off. Turn them on to get new versions automatically.';
    case 'checking':
      return 'Checking for a new version…';
    case 'up-to-date':
      return 'You have the newest version.';
    case 'downloading':
      return `Downloading version ${status.version ?? ''} in the background…`;
    case 'ready':
      return `Version ${status.version ?? ''} is ready. Restart the app to use it.`;
    case 'unavailable':
    case 'failed':
      return status.message ?? 'Could not check for updates.';
  }
}
