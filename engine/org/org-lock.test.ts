import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../run/test-support/temp-org';
import { OrgRunLock, RUN_HOLDER_FILE, runLockHolder } from './org-lock';

const HOLDER = join(REPO_ROOT, 'engine', 'org', 'test-support', 'hold-lock.ts');
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function org(): string {
  const dir = mkdtempSync(join(tmpdir(), 'org-lock-'));
  dirs.push(dir);
  return dir;
}

/** Starts a process that takes the lock and keeps it; resolves once it holds it. */
function holdInChild(orgPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, orgPath], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('HELD')) resolve(child);
      else if (out.includes('REFUSED')) reject(new Error(out));
    });
    child.on('exit', () => reject(new Error(`holder exited: ${out}`)));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.on('exit', () => resolve()),
  );
}

describe('the org run lock', () => {
  it('is exclusive within one process, and free again once released', () => {
    const dir = org();
    const first = OrgRunLock.take(dir, { program: 'first' });
    expect(first.ok).toBe(true);
    const second = OrgRunLock.take(dir, { program: 'second' });
    expect(second).toMatchObject({
      ok: false,
      error: { holder: { pid: process.pid, host: hostname(), program: 'first' } },
    });
    expect(runLockHolder(dir)).toMatchObject({ pid: process.pid, program: 'first' });
    if (first.ok) first.value.lock.release();
    expect(runLockHolder(dir)).toBeNull();
    expect(existsSync(join(dir, RUN_HOLDER_FILE))).toBe(false);
    const third = OrgRunLock.take(dir, { program: 'third' });
    expect(third).toMatchObject({ ok: true, value: { staleHolder: null } });
    if (third.ok) third.value.lock.release();
  });

  it(
    "refuses a second process at once, naming the holder's pid, host and since-when",
    { timeout: 30_000 },
    async () => {
      const dir = org();
      const child = await holdInChild(dir);
      const started = Date.now();
      const attempt = OrgRunLock.take(dir, { program: 'second' });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(attempt.ok).toBe(false);
      if (attempt.ok) return;
      expect(attempt.error.holder).toMatchObject({
        pid: child.pid,
        host: hostname(),
        program: 'hold-lock test',
      });
      expect(attempt.error.message).toContain(
        `pid ${child.pid} on ${hostname()}, since ${attempt.error.holder!.since}`,
      );
    },
  );

  it('is taken over after its holder is killed, and says who held it', { timeout: 30_000 }, async () => {
    const dir = org();
    const child = await holdInChild(dir);
    child.kill('SIGKILL');
    await exited(child);
    expect(runLockHolder(dir)).toBeNull();
    const attempt = OrgRunLock.take(dir, { program: 'next run' });
    expect(attempt).toMatchObject({
      ok: true,
      value: { staleHolder: { pid: child.pid, program: 'hold-lock test' } },
    });
    if (attempt.ok) attempt.value.lock.release();
  });

  it('lets exactly one of many processes starting together take it', { timeout: 60_000 }, async () => {
    const dir = org();
    const racers = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, dir], {
        cwd: REPO_ROOT,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      return new Promise<string>((resolve) => {
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
      });
    });
    const outcomes = await Promise.all(racers);
    expect(outcomes.filter((line) => line === 'HELD')).toHaveLength(1);
    expect(
      outcomes.filter((line) => line.startsWith('REFUSED This org is being run by another program')),
    ).toHaveLength(3);
  });

  it('is only looked at by runLockHolder, which creates nothing', () => {
    const dir = org();
    expect(runLockHolder(dir)).toBeNull();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a run lock that cannot be taken at all', () => {
  const failingWith = (code: string, message: string) => () => {
    throw new Database.SqliteError(message, code);
  };

  it('says the org folder is read-only, in a sentence, when SQLite cannot write there', () => {
    const attempt = OrgRunLock.take(
      org(),
      { program: 'test' },
      failingWith('SQLITE_READONLY', 'attempt to write a readonly database'),
    );
    expect(attempt).toEqual({
      ok: false,
      error: {
        holder: null,
        message: expect.stringMatching(/^The org folder is read-only: LeMMing cannot take its run lock/),
      },
    });
  });

  it('says the disk is full when SQLite finds it full', () => {
    const attempt = OrgRunLock.take(
      org(),
      { program: 'test' },
      failingWith('SQLITE_FULL', 'database or disk is full'),
    );
    expect(attempt.ok ? '' : attempt.error.message).toMatch(
      /^The disk is full: LeMMing cannot take its run lock \(\.lemming\/run\.lock in the org folder\)\. Free some space/,
    );
  });

  it('names the lock file and what went wrong when its place is taken by something else', () => {
    const orgPath = org();
    writeFileSync(join(orgPath, '.lemming'), 'not a folder');
    const attempt = OrgRunLock.take(orgPath, { program: 'test' });
    expect(attempt.ok ? '' : attempt.error.message).toMatch(
      /^LeMMing cannot take its run lock \(\.lemming\/run\.lock in the org folder\): E[A-Z]+: .*\.$/,
    );
  });
});
