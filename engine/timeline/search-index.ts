import type Database from 'better-sqlite3';
import { searchTextOfJson } from './search-text';

/**
 * The FTS index of the events' text, kept behind the events instead of inside every append: appends
 * write events only, and `catchUp` indexes, in seq order, every event newer than the progress row.
 * Indexing reads the stored JSON, so it needs nothing but the events table to resume after a crash.
 */
export class SearchIndex {
  private readonly selectProgress: Database.Statement;
  private readonly selectLatestSeq: Database.Statement;
  private readonly countAfter: Database.Statement;
  private readonly indexBatch: Database.Transaction<() => number> | null;

  constructor(
    db: Database.Database,
    readonly: boolean,
    private readonly batchSize: number,
  ) {
    this.selectProgress = db.prepare('SELECT indexed_through FROM search_progress WHERE id = 1').pluck();
    this.selectLatestSeq = db.prepare('SELECT max(seq) FROM events').pluck();
    this.countAfter = db.prepare('SELECT count(*) FROM events WHERE seq > ?').pluck();
    if (readonly) {
      this.indexBatch = null;
      return;
    }
    // `LIMIT +?`: see PLAN_FREE_PARAMETER in sqlite.ts.
    const selectAfter = db.prepare('SELECT seq, json FROM events WHERE seq > ? ORDER BY seq LIMIT +?');
    const insertText = db.prepare('INSERT INTO events_search (rowid, text) VALUES (?, ?)');
    const advance = db.prepare('UPDATE search_progress SET indexed_through = ? WHERE id = 1');
    this.indexBatch = db.transaction((): number => {
      // Read inside the write transaction: another writer may have indexed these events meanwhile.
      const rows = selectAfter.all(this.indexedThrough(), this.batchSize) as { seq: number; json: string }[];
      for (const row of rows) {
        const text = searchTextOfJson(row.json);
        if (text !== '') insertText.run(row.seq, text);
      }
      if (rows.length > 0) advance.run(rows.at(-1)!.seq);
      return rows.length;
    });
  }

  /** Indexes every event not indexed yet, one transaction per batch; returns how many it indexed. */
  catchUp(): number {
    if (!this.indexBatch) throw new Error('A read-only timeline cannot index its events.');
    let indexed = 0;
    // Checked without the write lock first, so a search on a caught-up timeline never waits for a writer.
    while (this.hasUnindexed()) {
      const batch = this.indexBatch.immediate();
      indexed += batch;
      if (batch < this.batchSize) break;
    }
    return indexed;
  }

  /** Events newer than the index: a text search does not find them until they are caught up. */
  unindexedCount(): number {
    return this.countAfter.get(this.indexedThrough()) as number;
  }

  private hasUnindexed(): boolean {
    return ((this.selectLatestSeq.get() as number | null) ?? 0) > this.indexedThrough();
  }

  private indexedThrough(): number {
    return this.selectProgress.get() as number;
  }
}
