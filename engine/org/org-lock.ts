import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Result } from '../api/result';
import { RunLockHolder } from '../api/run-schemas';
import { writeFileAtomicUnflushed } from '../files/atomic-write';

/**
 * The lock itself: an SQLite file whose exclusive lock the holder keeps for the whole run. SQLite
 * locks with the operating system's byte-range locks (fcntl on POSIX, LockFileEx on Windows), which
 * the kernel releases the moment the holding process ends, however it ends: a killed holder leaves no
 * lock behind, and a reused pid cannot keep one alive. Nothing is ever written into this file.
 */
export const RUN_LOCK_FILE = '.lemming/run.lock';
/** Who holds the lock, for the message a refused program shows; written by the holder once it has the lock. */
export const RUN_HOLDER_FILE = '.lemming/run-holder.json';

/** How long taking the lock waits out a program that is only looking at it (`runLockHolder`). */
const TAKE_WAIT_MS = 250;

/** Why the lock was not taken: who holds it (null when that is not known), in a sentence. */
export interface RunLockRefusal {
  /** Null also when the lock could not be taken at all (a read-only folder, a full disk): `message` says which. */
  holder: RunLockHolder | null;
  message: string;
}

export type RunLockAttempt = Result<{ lock: OrgRunLock; staleHolder: RunLockHolder | null }, RunLockRefusal>;

export interface RunLockOptions {
  /** What is taking it, shown to a program that is refused: `lemming run`, `LeMMing Desktop`. */
  program: string;
}

/**
 * One writer per org: the holder alone runs ticks, charges credits and writes the org's config files.
 * Keep a reference to the lock for as long as it is held: a lock that is garbage collected closes its
 * connection, and the operating system then frees it.
 */
export class OrgRunLock {
  private released = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly orgPath: string,
    readonly holder: RunLockHolder,
  ) {}

  /**
   * Takes the org's run lock at once, or says who holds it. A holder file left by a program that
   * ended without releasing the lock (killed, crashed) is returned as `staleHolder`.
   */
  static take(
    orgPath: string,
    options: RunLockOptions,
    openLockFile: (file: string) => Database.Database = (file) => new Database(file),
  ): RunLockAttempt {
    const ahead = takenAhead.get(resolve(orgPath));
    if (ahead) {
      takenAhead.delete(resolve(orgPath));
      return ahead;
    }
    let db: Database.Database | undefined;
    try {
      mkdirSync(join(orgPath, '.lemming'), { recursive: true });
      db = openLockFile(join(orgPath, RUN_LOCK_FILE));
      db.pragma(`busy_timeout = ${TAKE_WAIT_MS}`);
      // Nothing is written, so no rollback journal is kept beside it (a killed holder leaves none).
      db.pragma('journal_mode = OFF');
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db?.close();
      if (!isBusy(error)) return { ok: false, error: { holder: null, message: lockFailureMessage(error) } };
      const holder = holderOnceWritten(orgPath);
      return { ok: false, error: { holder, message: heldMessage(holder) } };
    }
    const staleHolder = readHolder(orgPath);
    const holder: RunLockHolder = {
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
      program: options.program,
    };
    try {
      writeFileAtomicUnflushed(join(orgPath, RUN_HOLDER_FILE), `${JSON.stringify(holder, null, 2)}\n`);
    } catch (error) {
      db.close();
      return { ok: false, error: { holder: null, message: lockFailureMessage(error) } };
    }
    return { ok: true, value: { lock: new OrgRunLock(db, orgPath, holder), staleHolder } };
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      const current = readHolder(this.orgPath);
      if (current && current.pid === this.holder.pid && current.since === this.holder.since)
        rmSync(join(this.orgPath, RUN_HOLDER_FILE), { force: true });
    } catch {
      // The holder file only names the holder; the lock is the database's, released below. A file left
      // behind names a program that has ended, and the next run takes over from it and says so.
    } finally {
      this.db.close();
    }
  }
}

/** Locks this process took before loading the code that uses them, by org folder (see takeRunLockAhead). */
const takenAhead = new Map<string, Extract<RunLockAttempt, { ok: true }>>();

/**
 * Takes the run lock now, for the next `OrgRunLock.take` of the same org in this process to receive:
 * the `lemming` binary takes it before it loads the rest of the CLI, so that of two runs started
 * together the second is refused within a moment. Released when the process exits, if not before.
 */
export function takeRunLockAhead(orgPath: string, options: RunLockOptions): RunLockAttempt {
  const attempt = OrgRunLock.take(orgPath, options);
  if (attempt.ok) {
    takenAhead.set(resolve(orgPath), attempt);
    process.once('exit', () => attempt.value.lock.release());
  }
  return attempt;
}

/**
 * Who holds the org's run lock right now, or null when nobody does. Only looks: creates and writes
 * nothing, so read-only commands and a watching app can ask as often as they like.
 */
export function runLockHolder(orgPath: string): RunLockHolder | null {
  let db: Database.Database;
  try {
    db = new Database(join(orgPath, RUN_LOCK_FILE), {
      readonly: true,
      fileMustExist: true,
    });
  } catch {
    return null;
  }
  try {
    db.pragma('busy_timeout = 0');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return null;
  } catch (error) {
    if (!isBusy(error)) throw error;
    return holderOnceWritten(orgPath) ?? { pid: 0, host: '', since: '', program: 'another program' };
  } finally {
    db.close();
  }
}

/** SQLite's and the system's codes for a folder or file that cannot be written, and for a full disk. */
const READ_ONLY_CODES = new Set([
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_PERM',
  'EACCES',
  'EPERM',
  'EROFS',
]);
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** Why the lock file could not be made or locked, in a sentence: never SQLite's code and stack. */
export function lockFailureMessage(error: unknown): string {
  const code = String((error as { code?: unknown }).code ?? '');
  const where = `its run lock (${RUN_LOCK_FILE} in the org folder)`;
  if (READ_ONLY_CODES.has(code))
    return `The org folder is read-only: LeMMing cannot take ${where}. Make the folder writable, or copy the org to a folder you can write to.`;
  if (DISK_FULL_CODES.has(code))
    return `The disk is full: LeMMing cannot take ${where}. Free some space and try again.`;
  return `LeMMing cannot take ${where}: ${error instanceof Error ? error.message : String(error)}.`;
}

/** The sentence a refused program shows. */
export function heldMessage(holder: RunLockHolder | null): string {
  if (!holder || holder.pid === 0)
    return 'This org is being run by another program; try again when it has stopped.';
  return `This org is being run by another program: ${holder.program} (pid ${holder.pid} on ${holder.host}, since ${holder.since}). Try again when it has stopped.`;
}

/**
 * The holder, read by a program that just found the lock held. The holder writes its file right after
 * it takes the lock, so a program that looks (or is refused) at that moment may find no file yet: it is
 * read again for up to TAKE_WAIT_MS.
 */
function holderOnceWritten(orgPath: string): RunLockHolder | null {
  const deadline = Date.now() + TAKE_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const holder = readHolder(orgPath);
    if (holder || Date.now() >= deadline) return holder;
    Atomics.wait(pause, 0, 0, 10);
  }
}

function readHolder(orgPath: string): RunLockHolder | null {
  try {
    const parsed = RunLockHolder.safeParse(JSON.parse(readFileSync(join(orgPath, RUN_HOLDER_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
