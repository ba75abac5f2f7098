import { appendFile, mkdir, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type Database from 'better-sqlite3';
import { writeFileAtomic } from '../org/atomic-write';

export interface FileWrite {
  /** Relative to the org folder. */
  path: string;
  mode: 'write' | 'append' | 'delete';
  /** Empty for a delete. */
  content: string;
}

/**
 * A journal of file writes (and deletions) owed by committed transactions. A turn records its outbox, memory and log
 * writes here in the same transaction as everything else, then performs them; after a crash they are
 * performed again on the next start. Writes are atomic (temp file + rename) and appends are skipped when
 * the file already ends with the same text, so replaying is safe.
 */
export class PendingFiles {
  private readonly insert: Database.Statement;
  private readonly selectAll: Database.Statement;
  private readonly remove: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly orgPath: string,
  ) {
    this.insert = db.prepare('INSERT INTO pending_files (path, mode, content) VALUES (?, ?, ?)');
    this.selectAll = db.prepare('SELECT id, path, mode, content FROM pending_files ORDER BY id');
    this.remove = db.prepare('DELETE FROM pending_files WHERE id = ?');
  }

  /** Call inside the transaction that makes the writes owed. */
  record(writes: readonly FileWrite[]): void {
    for (const write of writes) this.insert.run(write.path, write.mode, write.content);
  }

  /** Performs every owed write, oldest first, removing each from the journal once it is on disk. */
  async flush(): Promise<number> {
    const owed = this.selectAll.all() as (FileWrite & { id: number })[];
    for (const write of owed) {
      await perform(join(this.orgPath, write.path), write);
      this.remove.run(write.id);
    }
    return owed.length;
  }
}

async function perform(file: string, write: FileWrite): Promise<void> {
  if (write.mode === 'write') return writeFileAtomic(file, write.content);
  if (write.mode === 'delete') return rm(file, { force: true });
  if (await endsWith(file, write.content)) return;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, write.content);
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
