import type { UpdateStatus } from '../../engine/api/update-schemas';

/** electron-updater's codes for "the release feed has nothing usable for this app (yet)". */
const NOTHING_PUBLISHED = new Set([
  'ERR_UPDATER_LATEST_VERSION_NOT_FOUND',
  'ERR_UPDATER_NO_PUBLISHED_VERSIONS',
  'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
  'ERR_UPDATER_INVALID_RELEASE_FEED',
]);

/**
 * What an updater error means for the person using the app. Not reaching the update server, or finding
 * nothing published there, is ordinary (offline, a new project) and the next start tries again; anything
 * else (a broken download, a bad signature, a missing feed file) is a failure worth showing.
 */
export function describeUpdateError(error: unknown): Pick<UpdateStatus, 'state' | 'message'> {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof code === 'string' && NOTHING_PUBLISHED.has(code))
    return { state: 'unavailable', message: 'No newer version has been published yet.' };
  if ((typeof code === 'string' && code.startsWith('HTTP_ERROR_')) || /^net::ERR_/.test(message))
    return {
      state: 'unavailable',
      message: 'Could not reach the update server. The app checks again the next time it starts.',
    };
  return { state: 'failed', message: `The update could not be checked or downloaded: ${message}` };
}
