import type Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { recordFromEvent, recordFromLine, type EventRecord } from './event-record';
import type { TimelineEventInput } from '../api/timeline-events';
import { MESSAGE_KIND_PREFIX } from '../api/message-kind';
import { TimelineFilter, TimelineQuery, type TimelineEvent } from '../api/timeline-schemas';
import { MAX_LINE_BYTES, readJsonlLines } from './jsonl-lines';
import { timelineMigrations } from './migrations';
import { openDatabase, type OpenDatabaseError } from './open-database';
import { buildPageSql, MAX_MERGED_ARMS, type PageSql, type PageSqlOptions } from './page-sql';
import { SearchIndex } from './search-index';
import { seqSpansOf } from './seq-spans';
import { StatementCache } from './sqlite';
import { writeLinesAtomically } from './write-lines';

const DEFAULT_PAGE_LIMIT = 200;

/** One page of stored events, each with its JSON text exactly as written. */
export interface StoredPage {
  rows: TimelineEvent[];
  /** Cursor for the next page, or null when this page reached the end. */
  nextCursor: number | null;
  /** With `withTotal`: how many events match the filters. */
  total?: number;
  /** With `withTotal` on a `desc` page: how many matching events are newer than its first row. */
  position?: number;
}

export interface OpenTimelineOptions {
  /** Open for inspection only: never creates, migrates or writes the file. */
  readonly?: boolean;
}

export type OpenTimelineResult =
  { ok: true; timeline: TimelineStore } | { ok: false; error: OpenDatabaseError };

export interface ExportOptions {
  /** Aborted: the export stops between batches and leaves no file. */
  signal?: AbortSignal;
  /** Told the events written so far of those that match, after every batch. */
  progress?: (done: number, total: number) => void;
}

export interface ImportOptions {
  /** Aborted: the import stops after the line it is at, keeping the events imported so far. */
  signal?: AbortSignal;
  /** Told the bytes of the file read so far of its size, as it reads. */
  progress?: (done: number, total: number) => void;
}

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

/**
 * Events per transaction when importing, and rows per query when exporting. Large, because every
 * commit rewrites the hot end of each index and writes a new search segment.
 */
export const BULK_BATCH_SIZE = 5000;

/**
 * A tick range whose seq window holds more than this many events per event in the range is paged
 * through the tick index instead of walking the window (its ticks were written out of order, e.g.
 * an import of another timeline).
 */
const SCATTERED_TICKS_FACTOR = 4;

interface SeqWindow {
  from: number;
  to: number;
  /** Every seq from `from` to `to` is an event of the range, so its filter needs no other check. */
  exact?: boolean;
}

/** Distinct page query shapes kept prepared; a UI uses a handful, so this only bounds odd callers. */
const MAX_CACHED_STATEMENTS = 128;

/**
 * Records a batch's seqs in the window table of its tick or run (`key`, then the batch's first and last
 * seq and its event count): a new row, or the existing window widened and its count added to.
 */
function prepareWindowRecord(
  db: Database.Database,
  table: 'event_ticks' | 'event_runs',
  key: 'tick' | 'run_id',
): Database.Statement {
  return db.prepare(
    `INSERT INTO ${table} (${key}, first_seq, last_seq, events) VALUES (?, ?, ?, ?)
     ON CONFLICT (${key}) DO UPDATE SET first_seq = min(first_seq, excluded.first_seq),
       last_seq = max(last_seq, excluded.last_seq), events = events + excluded.events`,
  );
}

/** Opens (creating and migrating unless read-only) the timeline database at `file`. */
export function openTimeline(file: string, options: OpenTimelineOptions = {}): OpenTimelineResult {
  const opened = openDatabase(file, options, timelineMigrations);
  return opened.ok
    ? { ok: true, timeline: new TimelineStore(opened.db, file, options.readonly ?? false) }
    : opened;
}

/** The event timeline of one org: append, page, search, export and import. */
export class TimelineStore {
  private readonly insertEvent: Database.Statement | null;
  private readonly recordTick: Database.Statement | null;
  private readonly recordRun: Database.Statement | null;
  private readonly addToCount: Database.Statement | null;
  private readonly insertCount: Database.Statement | null;
  private readonly selectSeqRange: Database.Statement;
  private readonly selectRunEvents: Database.Statement;
  private readonly selectMessageKinds: Database.Statement;
  private readonly readPage: (query: TimelineQuery) => StoredPage;
  private readonly selectTickWindow: Database.Statement;
  private readonly selectRunWindow: Database.Statement;
  private readonly selectKinds: Database.Statement;
  private readonly selectBySeq: Database.Statement;
  private readonly selectLatestSeq: Database.Statement;
  private readonly pageStatements: StatementCache;
  private readonly insertRecords: (records: EventRecord[]) => number[];
  private readonly fetch: (filter: TimelineFilter, options: PageSqlOptions) => TimelineEvent[];
  private readonly search: SearchIndex;

  constructor(
    /** The connection, for modules that write their own tables in the same transaction. */
    readonly db: Database.Database,
    readonly file: string,
    readonly readonly: boolean,
  ) {
    this.pageStatements = new StatementCache(db, MAX_CACHED_STATEMENTS);
    this.insertEvent = readonly
      ? null
      : db.prepare('INSERT INTO events (kind, agent, tick, run_id, time, json) VALUES (?, ?, ?, ?, ?, ?)');
    this.recordTick = readonly ? null : prepareWindowRecord(db, 'event_ticks', 'tick');
    this.recordRun = readonly ? null : prepareWindowRecord(db, 'event_runs', 'run_id');
    this.addToCount = readonly
      ? null
      : db.prepare('UPDATE event_counts SET events = events + ? WHERE kind = ? AND agent IS ?');
    this.insertCount = readonly
      ? null
      : db.prepare('INSERT INTO event_counts (events, kind, agent) VALUES (?, ?, ?)');
    // Separate subqueries: min and max of the rowid are one b-tree step each, but not when asked together.
    this.selectSeqRange = db.prepare(
      `SELECT (SELECT min(seq) FROM events) AS first, (SELECT max(seq) FROM events) AS last,
         (SELECT coalesce(sum(events), 0) FROM event_counts) AS events`,
    );
    this.selectMessageKinds = db
      .prepare('SELECT DISTINCT kind FROM event_counts WHERE kind >= ? AND kind < ?')
      .pluck();
    this.selectRunEvents = db.prepare('SELECT events FROM event_runs WHERE run_id = ?').pluck();
    this.selectRunWindow = db.prepare(
      'SELECT first_seq AS "from", last_seq AS "to", events FROM event_runs WHERE run_id = ?',
    );
    // One index seek past the previous kind per distinct kind, not a scan of the events.
    this.selectKinds = db
      .prepare(
        `WITH RECURSIVE k(kind) AS (
           SELECT (SELECT min(kind) FROM events)
           UNION ALL
           SELECT (SELECT min(kind) FROM events WHERE kind > k.kind) FROM k WHERE k.kind IS NOT NULL LIMIT ?
         )
         SELECT kind FROM k WHERE kind IS NOT NULL`,
      )
      .pluck();
    this.selectTickWindow = db.prepare(
      'SELECT min(first_seq) AS "from", max(last_seq) AS "to", sum(events) AS events FROM event_ticks WHERE tick >= ? AND tick <= ?',
    );
    this.selectBySeq = db.prepare(
      'SELECT seq, kind, agent, tick, run_id AS runId, time, json FROM events WHERE seq = ?',
    );
    this.selectLatestSeq = db.prepare('SELECT max(seq) AS seq FROM events').pluck();
    this.insertRecords = db.transaction((records: EventRecord[]) => {
      const seqs = records.map((record) => this.insertRecord(record));
      this.recordSpans(records, seqs);
      this.recordCounts(records);
      return seqs;
    });
    // One read transaction, so the kinds an agent filter merges over are those of the events it reads.
    this.fetch = db.transaction((filter: TimelineFilter, options: PageSqlOptions) =>
      this.fetchNow(filter, options),
    );
    // The count, the seek and the rows of a page are read in one transaction, so they agree.
    this.readPage = db.transaction((query: TimelineQuery) => this.readPageNow(query));
    this.search = new SearchIndex(db, readonly, BULK_BATCH_SIZE);
  }

  /** Adds one event and returns its seq. Throws InvalidTimelineEventError for an event without a kind. */
  append(event: TimelineEventInput): number {
    return this.appendMany([event])[0]!;
  }

  /**
   * Adds events in one transaction (all or none) and returns their seqs in order. A text search finds
   * them once the search index has caught up (catchUpSearch, which a text query on this store runs).
   */
  appendMany(events: readonly TimelineEventInput[]): number[] {
    this.assertWritable('append events');
    return this.insertRecords(events.map(recordFromEvent));
  }

  /** Runs `fn` in one transaction (nested calls become savepoints), committing when it returns. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /**
   * Indexes the text of every event appended since the last catch-up, in batches; returns how many
   * events it indexed. The engine runs it after each tick, so the index stays one tick behind at most.
   */
  catchUpSearch(): number {
    this.assertWritable('index events for search');
    return this.search.catchUp();
  }

  /** Events a text search cannot find yet: appended after the last catch-up. */
  unsearchedEvents(): number {
    return this.search.unindexedCount();
  }

  /**
   * A page of events; with a text filter, a writable store first catches its search index up. With
   * `position`, the page starts that many matching rows below the newest (seekPosition); with
   * `withTotal`, it also says how many events match and where its first row is.
   */
  page(query: TimelineQuery = {}): StoredPage {
    const parsed = TimelineQuery.parse(query);
    this.catchUpSearchFor(parsed);
    return this.readPage(parsed);
  }

  /** SQLite's plan for the first page of `query`, one step per line: for diagnosing slow filters. */
  explainPage(query: TimelineQuery = {}): string[] {
    const parsed = TimelineQuery.parse(query);
    const pageSql = this.pageSql(parsed, {
      direction: parsed.direction ?? 'desc',
      cursor: parsed.cursor ?? null,
      limit: (parsed.limit ?? DEFAULT_PAGE_LIMIT) + 1,
    });
    if (!pageSql) return [];
    const steps = this.db.prepare(`EXPLAIN QUERY PLAN ${pageSql.sql}`).all(...pageSql.params) as {
      detail: string;
    }[];
    return steps.map((step) => step.detail);
  }

  get(seq: number): TimelineEvent | null {
    return (this.selectBySeq.get(seq) as TimelineEvent | undefined) ?? null;
  }

  /** The newest event's seq, or 0 when the timeline is empty. */
  latestSeq(): number {
    return (this.selectLatestSeq.get() as number | null) ?? 0;
  }

  /**
   * Writes the events matching `filter`, oldest first, one stored JSON text per line, as they were
   * when the export started. Streams in batches; the file appears only when complete, so an export
   * cancelled (its signal aborted) or failed leaves none.
   */
  async exportJsonl(
    filePath: string,
    filter: TimelineFilter = {},
    { signal, progress }: ExportOptions = {},
  ): Promise<{ exported: number }> {
    const parsed = TimelineFilter.parse(filter);
    this.catchUpSearchFor(parsed);
    const upTo = this.latestSeq();
    const total = progress ? this.countNow(parsed, null) : 0;
    const fetchBatch = (cursor: number | null): TimelineEvent[] =>
      this.fetch(parsed, { direction: 'asc', cursor, upTo, limit: BULK_BATCH_SIZE });
    async function* batches(): AsyncGenerator<string[]> {
      let cursor: number | null = null;
      let written = 0;
      progress?.(0, total);
      for (;;) {
        signal?.throwIfAborted();
        const rows = fetchBatch(cursor);
        if (rows.length > 0) yield rows.map((row) => row.json);
        written += rows.length;
        progress?.(written, Math.max(total, written));
        if (rows.length < BULK_BATCH_SIZE) return;
        cursor = rows.at(-1)!.seq;
        // Between batches the thread hears other calls: a cancel, the window's own reads.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    try {
      return { exported: await writeLinesAtomically(filePath, batches(), signal) };
    } catch (error) {
      throw new Error(`Could not export the timeline to ${filePath}: ${messageOf(error)}`, { cause: error });
    }
  }

  /**
   * Appends every event of a JSON Lines file as a new event, keeping each line's text exactly. A line
   * that is not an event is skipped and reported with its line number; it never stops the import.
   * Commits in batches, so an import cut short keeps the batches before the cut. Indexes the imported
   * events for search at the end. Cancelled (its signal aborted), it stops after the line it is at and
   * keeps what it imported, which its summary counts.
   */
  async importJsonl(filePath: string, { signal, progress }: ImportOptions = {}): Promise<ImportSummary> {
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
      const total = progress ? (await stat(filePath)).size : 0;
      let read = 0;
      progress?.(0, total);
      const chunkRead = (bytes: number) => {
        read += bytes;
        progress?.(read, Math.max(total, read));
      };
      for await (const line of readJsonlLines(filePath, MAX_LINE_BYTES, chunkRead)) {
        if (signal?.aborted) break;
        if ('problem' in line) {
          skip(line.line, line.problem);
          continue;
        }
        const result = recordFromLine(line.text);
        if (!result.ok) skip(line.line, result.error);
        else if (batch.push(result.value) >= BULK_BATCH_SIZE) flush();
      }
    } catch (error) {
      throw new Error(`Could not import ${filePath}: ${messageOf(error)}`, { cause: error });
    }
    flush();
    this.search.catchUp();
    return summary;
  }

  /**
   * Closes the connection. The last writer to close also leaves the file in rollback-journal mode, so
   * a closed timeline is one self-contained file that opens read-only anywhere (a WAL-mode file needs
   * its -shm and -wal beside it, which a read-only folder cannot hold) and leaves nothing behind.
   * A writable store catches its search index up first, so a closed timeline is fully searchable.
   */
  close(): void {
    if (!this.db.open) return;
    try {
      if (!this.readonly) this.search.catchUp();
    } finally {
      if (!this.readonly) leaveWalModeIfAlone(this.db);
      this.db.close();
    }
  }

  private insertRecord(record: EventRecord): number {
    return Number(
      this.insertEvent!.run(record.kind, record.agent, record.tick, record.runId, record.time, record.json)
        .lastInsertRowid,
    );
  }

  /** A text query must see every event, so a writable store indexes what is pending before it runs. */
  private catchUpSearchFor(filter: TimelineFilter): void {
    if (filter.text !== undefined && !this.readonly) this.search.catchUp();
  }

  /** Where the batch's ticks and runs lie in seq order, so their filters walk narrow seq windows. */
  private recordSpans(records: EventRecord[], seqs: number[]): void {
    const ticks = seqSpansOf(
      records.map((record) => record.tick),
      seqs,
    );
    for (const [tick, span] of ticks) this.recordTick!.run(tick, span.first, span.last, span.events);
    const runs = seqSpansOf(
      records.map((record) => record.runId),
      seqs,
    );
    for (const [run, span] of runs) this.recordRun!.run(run, span.first, span.last, span.events);
  }

  private fetchNow(filter: TimelineFilter, options: PageSqlOptions): TimelineEvent[] {
    const pageSql = this.pageSql(filter, options);
    return pageSql ? (this.pageStatements.get(pageSql.sql).all(...pageSql.params) as TimelineEvent[]) : [];
  }

  /** Adds the batch's events to the counts per agent and kind. */
  private recordCounts(records: EventRecord[]): void {
    const counts = new Map<string, { kind: string; agent: string | null; events: number }>();
    for (const record of records) {
      const key = JSON.stringify([record.kind, record.agent]);
      const count = counts.get(key);
      if (count) count.events += 1;
      else counts.set(key, { kind: record.kind, agent: record.agent, events: 1 });
    }
    for (const { kind, agent, events } of counts.values()) {
      if (this.addToCount!.run(events, kind, agent).changes === 0) this.insertCount!.run(events, kind, agent);
    }
  }

  private readPageNow(parsed: TimelineQuery): StoredPage {
    const direction = parsed.direction ?? 'desc';
    const limit = parsed.limit ?? DEFAULT_PAGE_LIMIT;
    const total = parsed.withTotal || parsed.position !== undefined ? this.countNow(parsed, null) : undefined;
    const seek = direction === 'desc' && parsed.position !== undefined;
    const position = seek ? Math.max(0, Math.min(parsed.position!, total! - limit)) : undefined;
    const cursor = seek ? this.cursorAtNow(parsed, position!, total!) : (parsed.cursor ?? null);
    const rows = this.fetchNow(parsed, { direction, cursor, limit: limit + 1 });
    const hasMore = rows.length > limit;
    if (hasMore) rows.pop();
    const page: StoredPage = { rows, nextCursor: hasMore ? rows.at(-1)!.seq : null };
    if (!parsed.withTotal) return page;
    page.total = total;
    if (direction === 'desc') {
      page.position =
        position ??
        (cursor === null || rows.length === 0 ? 0 : this.newerThanNow(parsed, rows[0]!.seq, total!));
    }
    return page;
  }

  /** The desc cursor (one past the seq) of the row `position` rows below the newest matching one. */
  private cursorAtNow(filter: TimelineFilter, position: number, total: number): number | null {
    if (position === 0 || total === 0) return null;
    const newest = this.newestOfContiguous(filter);
    if (newest !== null) return newest - position + 1;
    // Otherwise walk the filter's indexes from the nearer end, reading seqs only.
    const fromNewest = position <= total / 2;
    const pageSql = this.pageSql(filter, {
      direction: fromNewest ? 'desc' : 'asc',
      cursor: null,
      limit: 1,
      offset: fromNewest ? position : total - 1 - position,
      columns: 'seq',
    });
    const seq = pageSql
      ? (this.pageStatements
          .get(pageSql.sql)
          .pluck()
          .get(...pageSql.params) as number | undefined)
      : undefined;
    return seq === undefined ? null : seq + 1;
  }

  /**
   * The newest matching seq when the matching events are every seq up to it from some oldest one, so
   * a position is a distance from it: no filter and no gap (seqs are handed out one by one), or a tick
   * range or run written together (an exact seq window); else null.
   */
  private newestOfContiguous(filter: TimelineFilter): number | null {
    if (isUnfiltered(filter)) {
      const range = this.selectSeqRange.get() as {
        first: number | null;
        last: number | null;
        events: number;
      };
      if (range.first === null || range.last === null) return null;
      return range.last - range.first + 1 === range.events ? range.last : null;
    }
    if (filter.agents?.length || filter.kinds?.length || filter.text !== undefined) return null;
    const window = this.seqWindowOptions(filter);
    return window !== 'no events' && window.seqWindow?.exact ? window.seqWindow.to : null;
  }

  /** How many events match `filter` (with `after`: only those with a greater seq). */
  private countNow(filter: TimelineFilter, after: number | null): number {
    const ticks = filter.tickFrom !== undefined || filter.tickTo !== undefined;
    const narrowed = ticks || filter.runId !== undefined || filter.text !== undefined;
    if (after === null && !narrowed) return this.countByAgentKind(filter);
    if (after === null && ticks && isUnfiltered({ ...filter, tickFrom: undefined, tickTo: undefined })) {
      const window = this.selectTickWindow.get(
        filter.tickFrom ?? Number.MIN_SAFE_INTEGER,
        filter.tickTo ?? Number.MAX_SAFE_INTEGER,
      ) as { events: number | null };
      return window.events ?? 0;
    }
    if (after === null && filter.runId !== undefined && isUnfiltered({ ...filter, runId: undefined })) {
      return (this.selectRunEvents.get(filter.runId) as number | undefined) ?? 0;
    }
    const pageSql = this.pageSql(filter, { direction: 'asc', cursor: after, limit: -1, columns: 'seq' });
    if (!pageSql) return 0;
    return this.pageStatements
      .get(`SELECT count(*) FROM (${pageSql.sql})`)
      .pluck()
      .get(...pageSql.params) as number;
  }

  /** Matching events newer than `seq`, counted on the side of it that holds fewer events. */
  private newerThanNow(filter: TimelineFilter, seq: number, total: number): number {
    const newest = this.newestOfContiguous(filter);
    if (newest !== null) return newest - seq;
    return seq >= this.latestSeq() / 2 ? this.countNow(filter, seq) : total - this.countUpTo(filter, seq);
  }

  /** Matching events with seq at most `seq`. */
  private countUpTo(filter: TimelineFilter, seq: number): number {
    const pageSql = this.pageSql(filter, {
      direction: 'asc',
      cursor: null,
      upTo: seq,
      limit: -1,
      columns: 'seq',
    });
    if (!pageSql) return 0;
    return this.pageStatements
      .get(`SELECT count(*) FROM (${pageSql.sql})`)
      .pluck()
      .get(...pageSql.params) as number;
  }

  /** An agent/kind filter's size: a sum over the matching rows of event_counts. */
  private countByAgentKind(filter: TimelineFilter): number {
    const agents = [...new Set(filter.agents ?? [])];
    const kinds = [...new Set(this.withMessageFamily(filter).kinds ?? [])];
    const conditions = [
      ...(kinds.length ? [`kind IN (${kinds.map(() => '?').join(', ')})`] : []),
      ...(agents.length ? [`agent IN (${agents.map(() => '?').join(', ')})`] : []),
    ];
    const sql = `SELECT coalesce(sum(events), 0) FROM event_counts${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
    return this.pageStatements
      .get(sql)
      .pluck()
      .get(...kinds, ...agents) as number;
  }

  /** The SQL that serves a page, or null when the filter's tick range or run holds no events at all. */
  private pageSql(filter: TimelineFilter, options: PageSqlOptions): PageSql | null {
    const window = this.seqWindowOptions(filter);
    if (window === 'no events') return null;
    return buildPageSql(this.withMessageFamily(filter), {
      ...options,
      ...window,
      ...this.kindOptions(filter),
    });
  }

  /**
   * A filter for kind `message` finds every message, whatever kind its outbox entry gave itself (each
   * `message:<kind>` the timeline holds, found in event_counts); `message:<kind>` finds only those.
   */
  private withMessageFamily(filter: TimelineFilter): TimelineFilter {
    if (!filter.kinds?.includes('message')) return filter;
    const own = this.selectMessageKinds.all(MESSAGE_KIND_PREFIX, nextPrefix(MESSAGE_KIND_PREFIX)) as string[];
    return own.length === 0 ? filter : { ...filter, kinds: [...filter.kinds, ...own] };
  }

  private kindOptions(filter: TimelineFilter): Pick<PageSqlOptions, 'everyKind'> {
    const agents = new Set(filter.agents ?? []).size;
    if (agents === 0 || (filter.kinds?.length ?? 0) > 0 || filter.text !== undefined) return {};
    const kinds = this.selectKinds.all(MAX_MERGED_ARMS + 1) as string[];
    return agents * kinds.length <= MAX_MERGED_ARMS ? { everyKind: kinds } : {};
  }

  /** The seq window of the filter's tick range and run together. */
  private seqWindowOptions(
    filter: TimelineFilter,
  ): Pick<PageSqlOptions, 'seqWindow' | 'viaTickIndex'> | 'no events' {
    const ticks = this.tickWindow(filter);
    const run = filter.runId === undefined ? null : this.runWindow(filter.runId);
    if (ticks === 'no events' || run === 'no events') return 'no events';
    if (!run) return ticks ?? {};
    if (!ticks) return { seqWindow: run };
    const seqWindow = {
      from: Math.max(run.from, ticks.seqWindow.from),
      to: Math.min(run.to, ticks.seqWindow.to),
      exact: !!run.exact && !!ticks.seqWindow.exact,
    };
    return seqWindow.from > seqWindow.to ? 'no events' : { seqWindow, viaTickIndex: ticks.viaTickIndex };
  }

  private runWindow(runId: string): SeqWindow | 'no events' {
    const window = this.selectRunWindow.get(runId) as (SeqWindow & { events: number }) | undefined;
    if (!window) return 'no events';
    return { from: window.from, to: window.to, exact: window.to - window.from + 1 === window.events };
  }

  private tickWindow(
    filter: TimelineFilter,
  ): { seqWindow: SeqWindow; viaTickIndex: boolean } | 'no events' | null {
    if (filter.tickFrom === undefined && filter.tickTo === undefined) return null;
    const window = this.selectTickWindow.get(
      filter.tickFrom ?? Number.MIN_SAFE_INTEGER,
      filter.tickTo ?? Number.MAX_SAFE_INTEGER,
    ) as {
      from: number | null;
      to: number;
      events: number;
    };
    if (window.from === null) return 'no events';
    return {
      seqWindow: { from: window.from, to: window.to, exact: window.to - window.from + 1 === window.events },
      viaTickIndex: window.to - window.from + 1 > SCATTERED_TICKS_FACTOR * window.events,
    };
  }

  private assertWritable(action: string): void {
    if (this.readonly) throw new TimelineReadOnlyError(`Cannot ${action}: ${this.file} is open read-only.`);
  }
}

/** The smallest string after every string that starts with `prefix`. */
function nextPrefix(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** True when the filter narrows nothing but agents and kinds it does not name (an empty list is no filter). */
function isUnfiltered(filter: TimelineFilter): boolean {
  return (
    !filter.agents?.length &&
    !filter.kinds?.length &&
    filter.text === undefined &&
    filter.tickFrom === undefined &&
    filter.tickTo === undefined &&
    filter.runId === undefined
  );
}

/** Another connection keeps the file in WAL mode: that is fine, so this never waits or fails. */
function leaveWalModeIfAlone(db: Database.Database): void {
  db.pragma('busy_timeout = 0');
  try {
    db.pragma('journal_mode = DELETE');
  } catch {
    // SQLITE_BUSY: another connection has the file open and the mode stays WAL until it closes.
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
