import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

/** Where a file is written before it is complete and renamed into place. */
export function partialPathOf(filePath: string): string {
  return `${filePath}.partial-${process.pid}`;
}

/**
 * Writes batches of lines to `filePath`, each line followed by `\n`, without holding more than one
 * batch in memory. The file appears complete or not at all: it is written beside the target and
 * renamed over it at the end. Returns the number of lines written. Aborting `signal` stops it at once,
 * even while a write waits for a slow disk, and removes what was written.
 */
export async function writeLinesAtomically(
  filePath: string,
  batches: AsyncIterable<string[]> | Iterable<string[]>,
  signal?: AbortSignal,
): Promise<number> {
  const partialPath = partialPathOf(filePath);
  const out = createWriteStream(partialPath);
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure = error;
  });
  const waitFor = (event: string) => once(out, event, signal ? { signal } : {});
  let written = 0;
  try {
    await waitFor('open');
    for await (const lines of batches) {
      if (failure) throw failure;
      signal?.throwIfAborted();
      if (lines.length === 0) continue;
      written += lines.length;
      if (!out.write(`${lines.join('\n')}\n`)) await waitFor('drain');
    }
    out.end();
    await waitFor('finish');
    if (failure) throw failure;
    await rename(partialPath, filePath);
    return written;
  } catch (error) {
    out.destroy();
    await rm(partialPath, { force: true });
    throw error;
  }
}
