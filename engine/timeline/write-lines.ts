import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';

/**
 * Writes batches of lines to `filePath`, each line followed by `\n`, without holding more than one
 * batch in memory. The file appears complete or not at all: it is written beside the target and
 * renamed over it at the end. Returns the number of lines written.
 */
export async function writeLinesAtomically(
  filePath: string,
  batches: AsyncIterable<string[]> | Iterable<string[]>,
): Promise<number> {
  const partialPath = `${filePath}.partial-${process.pid}`;
  const out = createWriteStream(partialPath);
  let failure: Error | null = null;
  out.on('error', (error) => {
    failure = error;
  });
  let written = 0;
  try {
    await once(out, 'open');
    for await (const lines of batches) {
      if (failure) throw failure;
      if (lines.length === 0) continue;
      written += lines.length;
      if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    if (failure) throw failure;
    await rename(partialPath, filePath);
    return written;
  } catch (error) {
    out.destroy();
    await rm(partialPath, { force: true });
    throw error;
  }
}
