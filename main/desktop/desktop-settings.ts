import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  DesktopSettings,
  NoticeKind,
  type UpdateDesktopSettingsInput,
} from '../../engine/api/desktop-schemas';
import { writeJsonAtomic } from '../../engine/files/atomic-write';

export const DESKTOP_SETTINGS_FILE = 'desktop.json';

export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = {
  notify: { approval: true, failing: true, run_ended: true, credits: true, sign_in: true },
  keepRunningInBackground: null,
  developerTools: false,
};

/** The file as written by this version or an earlier one, which may not know every kind of notification. */
const StoredDesktopSettings = DesktopSettings.extend({
  notify: z.partialRecord(NoticeKind, z.boolean()),
}).partial();

/** The app's desktop preferences in `<userData>/desktop.json`; what cannot be read counts as the defaults. */
export interface DesktopSettingsFile {
  read(): Promise<DesktopSettings>;
  update(change: UpdateDesktopSettingsInput): Promise<DesktopSettings>;
}

export function desktopSettingsIn(userDataPath: string): DesktopSettingsFile {
  const file = join(userDataPath, DESKTOP_SETTINGS_FILE);
  const read = async (): Promise<DesktopSettings> => {
    try {
      const parsed = StoredDesktopSettings.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (!parsed.success) return DEFAULT_DESKTOP_SETTINGS;
      return {
        ...DEFAULT_DESKTOP_SETTINGS,
        ...parsed.data,
        notify: { ...DEFAULT_DESKTOP_SETTINGS.notify, ...parsed.data.notify },
      };
    } catch {
      return DEFAULT_DESKTOP_SETTINGS;
    }
  };
  return {
    read,
    async update(change) {
      const current = await read();
      const next: DesktopSettings = {
        notify: { ...current.notify, ...change.notify },
        keepRunningInBackground: change.keepRunningInBackground ?? current.keepRunningInBackground,
        developerTools: change.developerTools ?? current.developerTools,
      };
      await writeJsonAtomic(file, next);
      return next;
    },
  };
}
