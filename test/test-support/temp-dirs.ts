import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * A maker of empty temporary folders for one test file, each removed after its test. Call it before the
 * file's own afterEach: hooks after a test run last-registered first, so what a test left running
 * (servers, threads) is stopped before its folders go.
 */
export function useTempDirs(prefix = 'lemming-test-'): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
