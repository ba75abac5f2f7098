import { readFileSync, statSync } from 'node:fs';

export type TextFileRead =
  | { found: true; text: string }
  /** `tooLarge` when the file was not read because it is over `maxBytes`, rather than failing to read. */
  | { found: false; missing: boolean; tooLarge?: true; message: string };

/**
 * Reads a UTF-8 file; a missing file and an unreadable one are told apart, neither throws.
 *
 * Synchronous inside, like the engine's other reads of small org files (resumes, config, memory,
 * outboxes, tool and skill files): a synchronous read of a small file costs about 10 µs, while
 * fs/promises' readFile makes four thread-pool round trips (about 120 µs measured here), and the
 * engine reads several such files for every agent turn.
 */
export async function readTextFile(path: string, options: { maxBytes?: number } = {}): Promise<TextFileRead> {
  return readTextFileSync(path, options);
}

/** `readTextFile` for the few readers that must stay synchronous (a scripted model's script). */
export function readTextFileSync(path: string, options: { maxBytes?: number } = {}): TextFileRead {
  try {
    if (options.maxBytes !== undefined) {
      const size = statSync(path).size;
      if (size > options.maxBytes)
        return {
          found: false,
          missing: false,
          tooLarge: true,
          message: `the file is ${size.toLocaleString('en')} bytes; at most ${options.maxBytes.toLocaleString('en')} are read`,
        };
    }
    return { found: true, text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      return { found: false, missing: true, message: 'the file does not exist' };
    return { found: false, missing: false, message: `cannot read: ${(error as Error).message}` };
  }
}
