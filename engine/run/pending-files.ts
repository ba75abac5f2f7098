import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import type Database from 'better-sqlite3';
import type { FileWrite } from '../files/file-write';
import { removeStaleTempFiles, writeFileAtomicUnflushed } from '../files/atomic-write';

export type { FileWrite };

interface OwedWrite extends FileWrite {
  id: number;
}

/** A write that failed and stays owed: the file (relative to the org) and why, in plain words. */
export interface FileWriteFailure {
  path: string;
  message: string;
  /** The folder of `path` and why it could not be written, in plain words (the failure's fields). */
  folder: string;
  reason: string;
}

/** Why a file could not be written, in words for a person rather than an error code. */
const PLAIN_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the folder is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'the disk reported an input/output error',
  EEXIST: 'a file is in the way of a folder',
  ENOTDIR: 'a file is in the way of a folder',
  EISDIR: 'a folder is in the way of the file',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
};

/** Why a file system call failed, in PLAIN_REASONS' words; null for a code they do not name. */
export function plainFileReason(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return (code && PLAIN_REASONS[code]) || null;
}

function writeFailure(path: string, error: unknown): FileWriteFailure {
  const reason = plainFileReason(error) ?? (error instanceof Error ? error.message : String(error));
  return { path, message: `could not write to ${path}: ${reason}`, folder: posix.dirname(path), reason };
}

/** The error a write that must succeed (tick.json, credits.json, a config edit) throws: its first failure, in plain words. */
export function throwIfFailed(failures: readonly FileWriteFailure[]): void {
  if (failures.length > 0) throw new Error(failures.map((failure) => failure.message).join('; '));
}

/**
 * A journal of file writes (and deletions) owed by committed transactions. A turn records its outbox,
 * memory and log writes here in the same transaction as everything else, then performs them; after a
 * crash they are performed again on the next start. Writes are atomic (temp file + rename), deletes
 * are idempotent, and a replayed append is skipped when the file already ends with its text, so a
 * write performed but not yet cleared from the journal is safe to perform again.
 *
 * The files are small and written synchronously and unflushed (see writeFileAtomicUnflushed): a turn's
 * writes cost tens of microseconds instead of a thread-pool round trip per step.
 */
export class PendingFiles {
  private readonly insert: Database.Statement;
  private readonly selectAll: Database.Statement;
  private readonly remove: Database.Statement;
  /** Performed writes still in the journal; removed with the next recording or by `settle`, not one commit each. */
  private performed: number[] = [];
  /** Folders known to exist, so an append does not ask the disk again. */
  private readonly folders = new Set<string>();

  constructor(
    private readonly db: Database.Database,
    private readonly orgPath: string,
  ) {
    this.insert = db.prepare('INSERT INTO pending_files (path, mode, content) VALUES (?, ?, ?)');
    this.selectAll = db.prepare('SELECT id, path, mode, content FROM pending_files ORDER BY id');
    this.remove = db.prepare('DELETE FROM pending_files WHERE id = ?');
  }

  /**
   * The content the newest owed write of `path` gives it: what the file is once the journal is
   * replayed. For a reader that may not replay it (a read-only command after a crash).
   */
  static owedContent(db: Database.Database, path: string): string | null {
    const row = db
      .prepare("SELECT content FROM pending_files WHERE path = ? AND mode = 'write' ORDER BY id DESC LIMIT 1")
      .pluck()
      .get(path);
    return typeof row === 'string' ? row : null;
  }

  /** Call inside the transaction that makes the writes owed; pass the result to `perform` after it commits. */
  record(writes: readonly FileWrite[]): OwedWrite[] {
    this.forgetPerformed();
    return writes.map((write) => ({
      ...write,
      id: Number(this.insert.run(write.path, write.mode, write.content).lastInsertRowid),
    }));
  }

  /** Clears performed writes from the journal in one transaction. */
  settle(): void {
    this.db.transaction(() => this.forgetPerformed())();
  }

  private forgetPerformed(): void {
    for (const id of this.performed) this.remove.run(id);
    this.performed = [];
  }

  /**
   * Performs writes just recorded by this process, each file's in order and different files at once,
   * removing each from the journal once it is on disk. A file whose write fails keeps it and its later
   * writes owed (performed again on the next start) and is answered among the failures; the others go on.
   */
  async perform(owed: readonly OwedWrite[]): Promise<FileWriteFailure[]> {
    return this.performAll(owed, { replay: false });
  }

  /**
   * Performs every write the journal still holds (after a crash), oldest first, clearing what the crash
   * left half-written. A write that fails again stays owed and is answered among the failures.
   */
  async replay(): Promise<FileWriteFailure[]> {
    const owed = this.selectAll.all() as OwedWrite[];
    await Promise.all(
      [...new Set(owed.map((write) => write.path))].map((path) =>
        removeStaleTempFiles(join(this.orgPath, path)),
      ),
    );
    const failures = await this.performAll(owed, { replay: true });
    this.settle();
    return failures;
  }

  private async performAll(
    owed: readonly OwedWrite[],
    options: { replay: boolean },
  ): Promise<FileWriteFailure[]> {
    const byPath = new Map<string, OwedWrite[]>();
    for (const write of owed) byPath.set(write.path, [...(byPath.get(write.path) ?? []), write]);
    const failures = await Promise.all(
      [...byPath.values()].map(async (writes): Promise<FileWriteFailure | null> => {
        for (const write of writes) {
          try {
            await this.performOne(join(this.orgPath, write.path), write, options);
          } catch (error) {
            return writeFailure(write.path, error);
          }
          this.performed.push(write.id);
        }
        return null;
      }),
    );
    return failures.filter((failure) => failure !== null);
  }

  private async performOne(file: string, write: FileWrite, options: { replay: boolean }): Promise<void> {
    if (write.mode === 'write') return writeFileAtomicUnflushed(file, write.content);
    if (write.mode === 'delete') return rmSync(file, { force: true });
    // Only a replay can find its append already done (the crash came between the append and the journal update).
    if (options.replay && (await endsWith(file, write.content))) return;
    const folder = dirname(file);
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.folders.add(folder);
    }
    appendFileSync(file, write.content);
  }
}

/** Reads only the file's tail: logs grow without bound. */
async function endsWith(file: string, text: string): Promise<boolean> {
  const expected = Buffer.from(text);
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size < expected.length) return false;
    const tail = Buffer.alloc(expected.length);
    await handle.read(tail, 0, expected.length, size - expected.length);
    return tail.equals(expected);
  } finally {
    await handle.close();
  }
}
