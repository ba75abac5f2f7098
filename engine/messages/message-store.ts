import type Database from 'better-sqlite3';
import { StatementCache } from '../timeline/sqlite';

/** An outbox entry as the engine stores it: its raw JSON exactly as on disk, plus what routing needs. */
export interface StoredMessage {
  seq: number;
  id: string;
  sender: string;
  tick: number | null;
  kind: string | null;
  /** agents/<sender>/outbox/<file name>, relative to the org. */
  file: string;
  json: string;
}

export type NewMessage = Omit<StoredMessage, 'seq'>;

/** Which outboxes a reader may read: every other agent's (`*`) or the named ones. */
export type ReadableSenders = { all: true; except: string } | { all: false; senders: readonly string[] };

export interface Inbox {
  /** Entries the reader has not been shown before, oldest first. */
  fresh: StoredMessage[];
  /** Entries it has seen, newest first, for context. */
  earlier: StoredMessage[];
  /** Where the reader's cursor goes once this inbox has been delivered. */
  cursorAfter: number;
  /** True when more new entries wait than one turn shows; they come next turn. */
  moreWaiting: boolean;
}

export interface InboxLimits {
  fresh: number;
  earlier: number;
}

export const DEFAULT_INBOX_LIMITS: InboxLimits = { fresh: 30, earlier: 10 };

const COLUMNS = 'seq, id, sender, tick, kind, file, json';

/**
 * Messages and per-reader read cursors. A message is "fresh" to a reader until a committed turn of that
 * reader has been shown it; the cursor only moves in the same transaction as that turn.
 */
export class MessageStore {
  private readonly insert: Database.Statement;
  private readonly selectByFile: Database.Statement;
  private readonly selectCursor: Database.Statement;
  private readonly upsertCursor: Database.Statement;
  private readonly selectLatestSeq: Database.Statement;
  /** Inbox queries by shape (how many senders a reader may read); prepared once, not every turn. */
  private readonly inboxStatements: StatementCache;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      'INSERT INTO messages (id, sender, tick, kind, file, json) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.selectByFile = db.prepare('SELECT seq FROM messages WHERE file = ?').pluck();
    this.selectCursor = db.prepare('SELECT last_seq FROM read_cursors WHERE reader = ?').pluck();
    this.upsertCursor = db.prepare(
      'INSERT INTO read_cursors (reader, last_seq) VALUES (?, ?) ON CONFLICT (reader) DO UPDATE SET last_seq = max(last_seq, excluded.last_seq)',
    );
    this.selectLatestSeq = db.prepare('SELECT coalesce(max(seq), 0) FROM messages').pluck();
    this.inboxStatements = new StatementCache(db, MAX_CACHED_STATEMENTS);
  }

  add(message: NewMessage): number {
    const result = this.insert.run(
      message.id,
      message.sender,
      message.tick,
      message.kind,
      message.file,
      message.json,
    );
    return Number(result.lastInsertRowid);
  }

  has(file: string): boolean {
    return this.selectByFile.get(file) !== undefined;
  }

  latestSeq(): number {
    return this.selectLatestSeq.get() as number;
  }

  cursor(reader: string): number {
    return (this.selectCursor.get(reader) as number | undefined) ?? 0;
  }

  advanceCursor(reader: string, toSeq: number): void {
    this.upsertCursor.run(reader, toSeq);
  }

  /** Newest first, keyset-paged by seq: what `sender` has written. */
  outbox(sender: string, options: { before?: number; limit?: number } = {}): StoredMessage[] {
    return this.db
      .prepare(`SELECT ${COLUMNS} FROM messages WHERE sender = ? AND seq < ? ORDER BY seq DESC LIMIT ?`)
      .all(
        sender,
        options.before ?? Number.MAX_SAFE_INTEGER,
        Math.min(options.limit ?? 50, 1000),
      ) as StoredMessage[];
  }

  /**
   * What `reader` should be shown now. `horizon` is the newest message seq that existed when the turn
   * began, so messages committed by agents running at the same time are fresh next turn, not lost.
   */
  inbox(
    reader: string,
    readable: ReadableSenders,
    horizon: number,
    limits: InboxLimits = DEFAULT_INBOX_LIMITS,
  ): Inbox {
    const cursor = this.cursor(reader);
    const [senderSql, senderParams] = senderFilter(readable);
    const fresh = this.inboxStatements
      // `LIMIT +?`: see PLAN_FREE_PARAMETER in timeline/sqlite.ts (these run every turn).
      .get(
        `SELECT ${COLUMNS} FROM messages WHERE seq > ? AND seq <= ? AND ${senderSql} ORDER BY seq LIMIT +?`,
      )
      .all(cursor, horizon, ...senderParams, limits.fresh + 1) as StoredMessage[];
    const moreWaiting = fresh.length > limits.fresh;
    if (moreWaiting) fresh.pop();
    const earlier =
      limits.earlier > 0
        ? (this.inboxStatements
            .get(`SELECT ${COLUMNS} FROM messages WHERE seq <= ? AND ${senderSql} ORDER BY seq DESC LIMIT +?`)
            .all(cursor, ...senderParams, limits.earlier) as StoredMessage[])
        : [];
    const cursorAfter = moreWaiting ? fresh.at(-1)!.seq : Math.max(cursor, horizon);
    return { fresh, earlier, cursorAfter, moreWaiting };
  }
}

/** Distinct inbox query shapes kept prepared; an org has a handful, so this only bounds odd ones. */
const MAX_CACHED_STATEMENTS = 64;

function senderFilter(readable: ReadableSenders): [string, string[]] {
  if (readable.all) return ['sender <> ?', [readable.except]];
  if (readable.senders.length === 0) return ['0', []];
  return [`sender IN (${readable.senders.map(() => '?').join(', ')})`, [...readable.senders]];
}
