import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../run/test-support/temp-org';

const CHILD = join(REPO_ROOT, 'engine', 'processes', 'test-support', 'spawn-child.ts');

function hasStrace(): boolean {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Runs spawn-child.ts under strace (`straceArgs`); resolves with its output, or 'hung' after `limitMs`. */
function underStrace(straceArgs: string[], script: string, limitMs: number) {
  return new Promise<{ stdout: string; hung: boolean }>((resolve) => {
    const child = spawn('strace', [...straceArgs, process.execPath, '--import', 'tsx', CHILD, script], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, hung: signal === 'SIGKILL' });
    });
  });
}

// strace's fault injection fails the very write that carries the spawn request to the helper. .ci/run
// installs strace, so this skip (no strace, or not Linux) hides nothing on CI.
describe.skipIf(process.platform !== 'linux' || !hasStrace())('the spawner helper’s channel', () => {
  it(
    'a failed write of a spawn request ends the program with a clear error instead of waiting forever',
    { timeout: 60_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'lemming-strace-'));
      folders.push(folder);
      const trace = join(folder, 'writes.txt');
      // A first run finds which write of the main thread carries the spawn request…
      const clean = await underStrace(['-e', 'trace=write', '-o', trace], 'echo hi', 30_000);
      expect(clean.stdout).toBe('stdout: hi\nclose: 0\n');
      const writes = readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('write('));
      const spawnWrite = writes.findIndex((line) => line.includes('\\5spawn')) + 1;
      expect(spawnWrite).toBeGreaterThan(0);

      // …the second fails exactly that one with EIO.
      const faulted = await underStrace(
        [
          '-e',
          'trace=write',
          '-e',
          `inject=write:error=EIO:when=${spawnWrite}`,
          '-o',
          join(folder, 'faulted.txt'),
        ],
        'echo hi',
        15_000,
      );
      expect(faulted.hung).toBe(false);
      expect(faulted.stdout).toMatch(/^error: EIO could not reach the program starter: .+$/m);
    },
  );
});
