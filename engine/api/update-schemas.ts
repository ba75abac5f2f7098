import { z } from 'zod';

/**
 * Where the app's own updates stand. The app checks GitHub Releases when it starts, downloads a newer
 * version in the background and asks before restarting into it.
 */
export const UpdateStatus = z.object({
  /** The user's "Check for updates automatically" switch in Settings. */
  enabled: z.boolean(),
  state: z.enum([
    /** Not checking: see `offReason`. */
    'off',
    'checking',
    'up-to-date',
    'downloading',
    /** Downloaded and ready: restarting installs it (quitting does too). */
    'ready',
    /** The update server could not be reached or had nothing for this app; the next start tries again. */
    'unavailable',
    /** The updater itself failed (its settings, the download's signature): see `message`. */
    'failed',
  ]),
  /**
   * Why updates are off: the app runs from a developer checkout, the user turned them off, or this copy
   * of the app was built without an update source.
   */
  offReason: z.enum(['development', 'turned-off', 'no-update-source']).nullable(),
  /** The version being downloaded or ready to install. */
  version: z.string().nullable(),
  /** What went wrong, in plain words, for `unavailable` and `failed`. */
  message: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

export const SetUpdatesEnabledInput = z.object({ enabled: z.boolean() }).strict();
