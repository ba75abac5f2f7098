import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

  it(
    'a report the helper cannot send ends the helper and the program without a stack trace',
    { timeout: 60_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'lemming-strace-'));
      folders.push(folder);
      const engine = spawn(process.execPath, ['--import', 'tsx', CHILD, 'sleep 2; echo hi'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      engine.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      engine.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const ended = new Promise<void>((resolve) => engine.on('close', () => resolve()));
      // strace follows the helper alone from the program's sleep on, so the helper's first write, the report
      // of the program's "hi", fails.
      const helperPid = await helperOf(engine.pid!);
      const trace = join(folder, 'helper.txt');
      const strace = spawn(
        'strace',
        ['-p', String(helperPid), '-e', 'trace=write', '-e', 'inject=write:error=EIO:when=1', '-o', trace],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      await new Promise<void>((resolve) =>
        strace.stderr.on('data', (chunk: Buffer) => chunk.toString().includes('attached') && resolve()),
      );
      const bound = setTimeout(() => engine.kill('SIGKILL'), 20_000);
      await ended;
      clearTimeout(bound);
      strace.kill();
      expect(readFileSync(trace, 'utf8')).toContain('(INJECTED)');
      expect(stderr).not.toMatch(/^\s+at |Unhandled 'error' event/m);
      expect(stdout).toMatch(/^error: EPIPE the program spawner ended$/m);
    },
  );
});

describe.skipIf(process.platform !== 'linux' || !hasStrace())('starting the spawner helper', () => {
  it(
    'a helper that cannot be started (its /dev/null cannot be opened) ends the program with an error, and nothing throws',
    { timeout: 60_000 },
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'lemming-strace-'));
      folders.push(folder);
      const faulted = await underStrace(
        [
          '-f',
          '-qq',
          '-P',
          '/dev/null',
          '-e',
          'trace=openat',
          '-e',
          'inject=openat:error=EIO',
          '-o',
          join(folder, 'faulted.txt'),
        ],
        'echo hi',
        15_000,
      );
      expect(faulted.hung).toBe(false);
      expect(faulted.stdout).toBe('error: EIO could not start the program starter: spawn EIO\n');
    },
  );
});

/** The spawner helper the process `pid` started (its child running Node with --jitless), once it runs a program. */
async function helperOf(pid: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = childrenOf(pid).find((child) => {
      try {
        return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--jitless');
      } catch {
        return false;
      }
    });
    // Once the helper has started the program, it is past its own start and waits for the program.
    if (found && childrenOf(Number(found)).length > 0) return Number(found);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`process ${pid} started no spawner helper`);
}

function childrenOf(pid: number): string[] {
  const children = `/proc/${pid}/task/${pid}/children`;
  return (existsSync(children) ? readFileSync(children, 'utf8') : '').split(' ').filter(Boolean);
}
