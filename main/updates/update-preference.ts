import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../../engine/files/atomic-write';

export const UPDATE_PREFERENCE_FILE = 'updates.json';

const PreferenceFile = z.object({ checkForUpdates: z.boolean() });

/** The Settings switch "Check for updates automatically", kept in `<userData>/updates.json`. */
export interface UpdatePreference {
  /** On unless the user turned it off; an unreadable file counts as on (and is replaced on the next save). */
  read(): Promise<boolean>;
  write(enabled: boolean): Promise<void>;
}

export function updatePreferenceIn(userDataPath: string): UpdatePreference {
  const file = join(userDataPath, UPDATE_PREFERENCE_FILE);
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        return true;
      }
      try {
        const parsed = PreferenceFile.safeParse(JSON.parse(text));
        return parsed.success ? parsed.data.checkForUpdates : true;
      } catch {
        return true;
      }
    },
    write: (enabled) => writeJsonAtomic(file, { checkForUpdates: enabled }),
  };
}
