import type { Migration } from './migrate';

/**
 * The human's inbox: which messages are for the human (named as a recipient, or sent to everyone) and
 * which of them the human has read. Filled by catching up with the messages table, as search does with
 * the events, so a turn's commit pays nothing for it.
 */
export const humanInboxMigration: Migration = {
  version: 5,
  name: 'human inbox',
  sql: `
    CREATE TABLE human_inbox (
      seq INTEGER PRIMARY KEY,            -- messages.seq
      sender TEXT NOT NULL,
      addressed INTEGER NOT NULL,         -- 1: names the human; 0: sent to everyone
      read_at TEXT
    );
    -- Unread counts and "mark all read" walk only the unread rows.
    CREATE INDEX human_inbox_unread ON human_inbox (seq) WHERE read_at IS NULL;
    CREATE TABLE human_inbox_progress (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      scanned_through INTEGER NOT NULL
    );
    INSERT INTO human_inbox_progress (id, scanned_through) VALUES (1, 0);
  `,
};
