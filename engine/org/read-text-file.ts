import { readFile } from 'node:fs/promises';

export type TextFileRead =
  { found: true; text: string } | { found: false; missing: boolean; message: string };

/** Reads a UTF-8 file; a missing file and an unreadable one are told apart, neither throws. */
export async function readTextFile(path: string): Promise<TextFileRead> {
  try {
    return { found: true, text: await readFile(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { found: false, missing: true, message: 'the file does not exist' };
    return { found: false, missing: false, message: `cannot read: ${(error as Error).message}` };
  }
}
