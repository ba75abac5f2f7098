import type { Migration } from './migrate';

/**
 * Which of the human's messages answers which message of the human's inbox, so the inbox shows a
 * reply under the message it answers. The reply itself is the human's outbox entry (messages.id).
 */
export const humanRepliesMigration: Migration = {
  version: 7,
  name: 'human replies',
  sql: `
    CREATE TABLE human_inbox_replies (
      message_seq INTEGER NOT NULL,       -- human_inbox.seq: the message answered
      reply_id TEXT NOT NULL,             -- messages.id of the human's reply
      PRIMARY KEY (message_seq, reply_id)
    ) WITHOUT ROWID;
  `,
};
