import type { JobProgress } from '../../engine/api/job-schemas';

/**
 * The window's progress bar on the taskbar or dock for the long jobs going on: the share of their work
 * done, from 0 to 1; null when none is going on (the bar is removed).
 */
export function taskbarProgress(jobs: Iterable<JobProgress>): number | null {
  let done = 0;
  let total = 0;
  let going = false;
  for (const job of jobs) {
    if (job.ended) continue;
    going = true;
    done += job.done;
    total += job.total;
  }
  if (!going) return null;
  return total === 0 ? 0 : Math.min(1, done / total);
}

/** The count drawn on the Windows taskbar's overlay icon: 1 to 9, then "9+". */
export type OverlayBadge = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '9+';
export const OVERLAY_BADGES: readonly OverlayBadge[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9+'];

/**
 * The Windows taskbar's overlay for what waits for the person: which image (a count, `badge-<n>.png`
 * under build/badges) and the words a screen reader says; null clears it.
 */
export function overlayBadge(count: number): { badge: OverlayBadge; description: string } | null {
  if (count <= 0) return null;
  const badge = count > 9 ? '9+' : (String(count) as OverlayBadge);
  return { badge, description: count === 1 ? '1 thing needs you' : `${count} things need you` };
}

/** The image file of an overlay badge. */
export function overlayBadgeFile(badge: OverlayBadge): string {
  return `badge-${badge === '9+' ? '9-plus' : badge}.png`;
}
