import type Database from 'better-sqlite3';
import { recordFromEvent, recordFromLine, type EventRecord } from './event-record';
import {
  DEFAULT_PAGE_LIMIT,
  TimelineFilter,
  TimelineQuery,
  type TimelineEventInput,
  type TimelinePage,
  type TimelineRow,
} from './event-schema';
import { readJsonlLines } from './jsonl-lines';
import { timelineMigrations } from './migrations';
import { openDatabase, type OpenDatabaseError } from './open-database';
import { buildPageSql, type PageSqlOptions } from './page-sql';
import { writeLinesAtomically } from './write-lines';

export interface OpenTimelineOptions {
  /** Open for inspection only: never creates, migrates or writes the file. */
  readonly?: boolean;
  /** better-sqlite3 addon for the current runtime (the Electron build in the app). */
  nativeBinding?: string;
}

export type OpenTimelineResult = { ok: true; timeline: TimelineStore } | { ok: false; error: OpenDatabaseError };

export interface ImportSummary {
  imported: number;
  /** Lines that were not imported and why; at most MAX_REPORTED_SKIPS of them. */
  skipped: { line: number; reason: string }[];
  /** How many lines were skipped in all. */
  skippedCount: number;
}

export class TimelineReadOnlyError extends Error {
  override name = 'TimelineReadOnlyError';
}

export const MAX_REPORTED_SKIPS = 1000;

/** Events per transaction when importing, and rows per query when exporting. */
const BATCH_SIZE = 2000;

/** Distinct page query shapes kept prepared; a UI uses a handful, so this only bounds odd callers. */
const MAX_CACHED_STATEMENTS = 128;

/** Opens (creating and migrating unless read-only) the timeline database at `file`. */
export function openTimeline(file: string, options: OpenTimelineOptions = {}): OpenTimelineResult {
  const opened = openDatabase(file, options, timelineMigrations);
  return opened.ok ? { ok: true, timeline: new TimelineStore(opened.db, file, options.readonly ?? false) } : opened;
}

/** The event timeline of one org: append, page, search, export and import. */
export class TimelineStore {
  private readonly insertEvent: Database.Statement | null;
  private readonly insertSearchText: Database.Statement | null;
  private readonly selectBySeq: Database.Statement;
  private readonly selectLatestSeq: Database.Statement;
  private readonly pageStatements = new Map<string, Database.Statement>();
  private readonly insertRecords: (records: EventRecord[]) => number[];

  constructor(
    /** The connection, for modules that write their own tables in the same transaction. */
    readonly db: Database.Database,
    readonly file: string,
    readonly readonly: boolean,
  ) {
    this.insertEvent = readonly ? null : db.prepare('INSERT INTO events (kind, agent, tick, run_id, time, json) VALUES (?, ?, ?, ?, ?, ?)');
    this.insertSearchText = readonly ? null : db.prepare('INSERT INTO events_search (rowid, text) VALUES (?, ?)');
    this.selectBySeq = db.prepare('SELECT seq, kind, agent, tick, run_id AS runId, time, json FROM events WHERE seq = ?');
    this.selectLatestSeq = db.prepare('SELECT max(seq) AS seq FROM events').pluck();
    this.insertRecords = db.transaction((records: EventRecord[]) => records.map((record) => this.insertRecord(record)));
  }

  /** Adds one event and returns its seq. Throws InvalidTimelineEventError for an event without a kind. */
  append(event: TimelineEventInput): number {
    return this.appendMany([event])[0]!;
  }

  /** Adds events in one transaction (all or none) and returns their seqs in order. */
  appendMany(events: readonly TimelineEventInput[]): number[] {
    this.assertWritable('append events');
    return this.insertRecords(events.map(recordFromEvent));
  }

  /** Runs `fn` in one transaction (nested calls become savepoints), committing when it returns. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  page(query: TimelineQuery = {}): TimelinePage {
    const parsed = TimelineQuery.parse(query);
    const limit = parsed.limit ?? DEFAULT_PAGE_LIMIT;
    const rows = this.fetch(parsed, { direction: parsed.direction ?? 'desc', cursor: parsed.cursor ?? null, limit: limit + 1 });
    const hasMore = rows.length > limit;
    if (hasMore) rows.pop();
    return { rows, nextCursor: hasMore ? rows.at(-1)!.seq : null };
  }

  get(seq: number): TimelineRow | null {
    return (this.selectBySeq.get(seq) as TimelineRow | undefined) ?? null;
  }

  /** The newest event's seq, or 0 when the timeline is empty. */
  latestSeq(): number {
    return (this.selectLatestSeq.get() as number | null) ?? 0;
  }

  /**
   * Writes the events matching `filter`, oldest first, one stored JSON text per line, as they were
   * when the export started. Streams in batches; the file appears only when complete.
   */
  async exportJsonl(filePath: string, filter: TimelineFilter = {}): Promise<{ exported: number }> {
    const parsed = TimelineFilter.parse(filter);
    const upTo = this.latestSeq();
    const fetchBatch = (cursor: number | null): TimelineRow[] =>
      this.fetch(parsed, { direction: 'asc', cursor, upTo, limit: BATCH_SIZE });
    function* batches(): Generator<string[]> {
      let cursor: number | null = null;
      for (;;) {
        const rows = fetchBatch(cursor);
        if (rows.length > 0) yield rows.map((row) => row.json);
        if (rows.length < BATCH_SIZE) return;
        cursor = rows.at(-1)!.seq;
      }
    }
    try {
      return { exported: await writeLinesAtomically(filePath, batches()) };
    } catch (error) {
      throw new Error(`Could not export the timeline to ${filePath}: ${messageOf(error)}`, { cause: error });
    }
  }

  /**
   * Appends every event of a JSON Lines file as a new event, keeping each line's text exactly. A line
   * that is not an event is skipped and reported with its line number; it never stops the import.
   * Commits in batches, so an import cut short keeps the batches before the cut.
   */
  async importJsonl(filePath: string): Promise<ImportSummary> {
    this.assertWritable('import events');
    const summary: ImportSummary = { imported: 0, skipped: [], skippedCount: 0 };
    const skip = (line: number, reason: string): void => {
      summary.skippedCount += 1;
      if (summary.skipped.length < MAX_REPORTED_SKIPS) summary.skipped.push({ line, reason });
    };
    let batch: EventRecord[] = [];
    const flush = (): void => {
      this.insertRecords(batch);
      summary.imported += batch.length;
      batch = [];
    };
    try {
      for await (const line of readJsonlLines(filePath)) {
        if ('problem' in line) {
          skip(line.line, line.problem);
          continue;
        }
        const result = recordFromLine(line.text);
        if (!result.ok) skip(line.line, result.reason);
        else if (batch.push(result.record) >= BATCH_SIZE) flush();
      }
    } catch (error) {
      throw new Error(`Could not import ${filePath}: ${messageOf(error)}`, { cause: error });
    }
    flush();
    return summary;
  }

  close(): void {
    if (!this.db.open) return;
    // Keeps the query planner's statistics current for the next session, cheaply.
    if (!this.readonly) this.db.pragma('optimize');
    this.db.close();
  }

  private insertRecord(record: EventRecord): number {
    const seq = Number(
      this.insertEvent!.run(record.kind, record.agent, record.tick, record.runId, record.time, record.json).lastInsertRowid,
    );
    if (record.searchText !== '') this.insertSearchText!.run(seq, record.searchText);
    return seq;
  }

  private fetch(filter: TimelineFilter, options: PageSqlOptions): TimelineRow[] {
    const { sql, params } = buildPageSql(filter, options);
    return this.statement(sql).all(...params) as TimelineRow[];
  }

  private statement(sql: string): Database.Statement {
    let statement = this.pageStatements.get(sql);
    if (!statement) {
      if (this.pageStatements.size >= MAX_CACHED_STATEMENTS) this.pageStatements.clear();
      statement = this.db.prepare(sql);
      this.pageStatements.set(sql, statement);
    }
    return statement;
  }

  private assertWritable(action: string): void {
    if (this.readonly) throw new TimelineReadOnlyError(`Cannot ${action}: ${this.file} is open read-only.`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
