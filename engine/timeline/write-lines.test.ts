import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { partialPathOf, writeLinesAtomically } from './write-lines';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// A named pipe nobody reads from is a disk that has stopped taking bytes: every write waits.
it.skipIf(process.platform === 'win32')(
  'stops when cancelled while a write waits for a slow disk, and leaves no file',
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lemming-write-lines-'));
    made.push(folder);
    const file = join(folder, 'out.jsonl');
    execFileSync('mkfifo', [partialPathOf(file)]);
    const reader = openSync(partialPathOf(file), constants.O_RDONLY | constants.O_NONBLOCK);
    const cancel = new AbortController();
    const line = 'x'.repeat(1000);
    function* batches() {
      for (;;) yield Array.from({ length: 1000 }, () => line);
    }
    try {
      const writing = writeLinesAtomically(file, batches(), cancel.signal);
      await new Promise((resolve) => setTimeout(resolve, 100));
      cancel.abort();
      await expect(writing).rejects.toThrow(/aborted/i);
    } finally {
      closeSync(reader);
    }
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
  },
);
