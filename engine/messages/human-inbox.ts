import type Database from 'better-sqlite3';
import { HUMAN_OPERATOR as HUMAN } from '../api/human-operator';
import type { ReadableSenders, StoredMessage } from './message-store';
import { StatementCache } from '../timeline/sqlite';

const CATCH_UP_BATCH = 5000;

export interface HumanInboxRow extends StoredMessage {
  /** True when the message names the human; false when it was sent to everyone. */
  addressed: boolean;
  readAt: string | null;
}

/** One of the human's replies to a message of the inbox: the human's own message as stored. */
export interface HumanReplyRow {
  messageSeq: number;
  tick: number | null;
  json: string;
}

/**
 * The messages for the human: those that name the human as a recipient, and those sent to everyone by
 * an agent the human reads. Which messages are for the human is worked out once per message, by
 * catching up with the messages table in seq order (like search), so turns pay nothing for it; read
 * marks are kept per message.
 */
export class HumanInbox {
  private readonly statements: StatementCache;
  /** A store opened read-only may predate the replies table (its writer is an older app). */
  private readonly keepsReplies: boolean;

  constructor(
    private readonly db: Database.Database,
    private readonly readonly: boolean,
  ) {
    this.statements = new StatementCache(db, 16);
    this.keepsReplies =
      db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'human_inbox_replies'")
        .get() !== undefined;
  }

  /** Sorts the messages added since the last catch-up; a read-only store leaves that to its writer. */
  catchUp(): void {
    if (this.readonly) return;
    const progress = this.statements.get('SELECT scanned_through FROM human_inbox_progress WHERE id = 1');
    const newer = this.statements.get(
      'SELECT seq, sender, json FROM messages WHERE seq > ? ORDER BY seq LIMIT ?',
    );
    const insert = this.statements.get(
      'INSERT OR IGNORE INTO human_inbox (seq, sender, addressed, read_at) VALUES (?, ?, ?, NULL)',
    );
    const advance = this.statements.get('UPDATE human_inbox_progress SET scanned_through = ? WHERE id = 1');
    const batch = this.db.transaction((): number => {
      const from = progress.pluck().get() as number;
      const rows = newer.all(from, CATCH_UP_BATCH) as { seq: number; sender: string; json: string }[];
      for (const row of rows) {
        const addressed = addressedToHuman(row.sender, row.json);
        if (addressed !== null) insert.run(row.seq, row.sender, addressed ? 1 : 0);
      }
      if (rows.length > 0) advance.run(rows.at(-1)!.seq);
      return rows.length;
    });
    while (batch() === CATCH_UP_BATCH);
  }

  /** Newest first, keyset-paged by seq. */
  page(readable: ReadableSenders, options: { before?: number; limit: number }): HumanInboxRow[] {
    const [senders, params] = forHuman(readable);
    const rows = this.statements
      .get(
        `SELECT m.seq, m.id, m.sender, m.tick, m.kind, m.file, m.json, h.addressed, h.read_at AS readAt
         FROM human_inbox h JOIN messages m ON m.seq = h.seq
         WHERE h.seq < ? AND ${senders} ORDER BY h.seq DESC LIMIT ?`,
      )
      .all(options.before ?? Number.MAX_SAFE_INTEGER, ...params, options.limit) as (Omit<
      HumanInboxRow,
      'addressed'
    > & { addressed: number })[];
    return rows.map((row) => ({ ...row, addressed: row.addressed === 1 }));
  }

  unreadCount(readable: ReadableSenders): number {
    const [senders, params] = forHuman(readable);
    return this.statements
      .get(`SELECT count(*) FROM human_inbox h WHERE h.read_at IS NULL AND ${senders}`)
      .pluck()
      .get(...params) as number;
  }

  /** Notes that the human's message `replyId` answers the inbox's message `messageSeq`. */
  recordReply(messageSeq: number, replyId: string): void {
    if (this.readonly || !this.keepsReplies) return;
    this.statements
      .get('INSERT OR IGNORE INTO human_inbox_replies (message_seq, reply_id) VALUES (?, ?)')
      .run(messageSeq, replyId);
  }

  /** The human's replies to the given messages, oldest first. */
  replies(messageSeqs: readonly number[]): HumanReplyRow[] {
    if (messageSeqs.length === 0 || !this.keepsReplies) return [];
    return this.statements
      .get(
        `SELECT r.message_seq AS messageSeq, m.tick, m.json
         FROM human_inbox_replies r JOIN messages m ON m.sender = ? AND m.id = r.reply_id
         WHERE r.message_seq IN (SELECT value FROM json_each(?)) ORDER BY m.seq`,
      )
      .all(HUMAN, JSON.stringify(messageSeqs)) as HumanReplyRow[];
  }

  /** Marks the given messages (or every one) read; returns how many were unread. */
  markRead(target: { seqs: readonly number[] } | 'all', at: Date): number {
    const time = at.toISOString();
    if (target === 'all')
      return this.statements.get('UPDATE human_inbox SET read_at = ? WHERE read_at IS NULL').run(time)
        .changes;
    const mark = this.statements.get('UPDATE human_inbox SET read_at = ? WHERE seq = ? AND read_at IS NULL');
    return this.db.transaction(() =>
      target.seqs.reduce((count, seq) => count + mark.run(time, seq).changes, 0),
    )();
  }
}

/** Messages addressed to the human always; messages to everyone only from senders the human reads. */
function forHuman(readable: ReadableSenders): [string, string[]] {
  if (readable.all) return ['(h.addressed = 1 OR h.sender <> ?)', [readable.except]];
  if (readable.senders.length === 0) return ['h.addressed = 1', []];
  return [
    `(h.addressed = 1 OR h.sender IN (${readable.senders.map(() => '?').join(', ')}))`,
    [...readable.senders],
  ];
}

/** True: names the human; false: sent to everyone; null: not for the human (or the human's own). */
function addressedToHuman(sender: string, json: string): boolean | null {
  if (sender === HUMAN) return null;
  let recipients: unknown;
  try {
    recipients = (JSON.parse(json) as { recipients?: unknown }).recipients ?? null;
  } catch {
    return null;
  }
  if (!Array.isArray(recipients) || recipients.length === 0) return false;
  return recipients.includes(HUMAN) ? true : null;
}
