import type { Migration } from './migrate';

/**
 * The engine's own state, kept in the timeline database so that one transaction commits a whole agent
 * turn: its events, messages, credit charges, read cursor, memory writes and the record that it ran.
 */
export const engineStateMigration: Migration = {
  version: 2,
  name: 'engine state',
  sql: `
    -- Every outbox entry the engine knows, in delivery order; seq is the read-cursor position.
    CREATE TABLE messages (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL,
      sender TEXT NOT NULL,
      tick INTEGER,
      kind TEXT,
      file TEXT NOT NULL UNIQUE,
      json TEXT NOT NULL
    );
    CREATE INDEX messages_by_sender ON messages (sender, seq);

    -- How far each reader has read: messages with a larger seq are new to it.
    CREATE TABLE read_cursors (
      reader TEXT PRIMARY KEY,
      last_seq INTEGER NOT NULL
    );

    -- Append-only. Amounts are in millionths of a credit so sums are exact; a balance can never go negative.
    CREATE TABLE credit_ledger (
      id INTEGER PRIMARY KEY,
      agent TEXT NOT NULL,
      kind TEXT NOT NULL,
      amount_micro INTEGER NOT NULL,
      balance_micro INTEGER NOT NULL CHECK (balance_micro >= 0),
      reason TEXT NOT NULL,
      tick INTEGER,
      turn TEXT,
      time TEXT NOT NULL
    );
    CREATE INDEX credit_ledger_by_agent ON credit_ledger (agent, id);

    -- One row per committed turn: a resumed run never repeats one.
    CREATE TABLE turns (
      tick INTEGER NOT NULL,
      agent TEXT NOT NULL,
      turn TEXT NOT NULL UNIQUE,
      run_id TEXT,
      status TEXT NOT NULL,
      committed_at TEXT NOT NULL,
      PRIMARY KEY (tick, agent)
    );

    -- Files a committed transaction still has to write (outbox, memory, logs); replayed after a crash.
    CREATE TABLE pending_files (
      id INTEGER PRIMARY KEY,
      path TEXT NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('write', 'append', 'delete')),
      content TEXT NOT NULL
    );

    -- Memory and log files the timeline already covers: imported from disk, or written by the engine
    -- (whose own events already describe them). Only files not listed here are imported.
    CREATE TABLE known_files (
      path TEXT PRIMARY KEY,
      origin TEXT NOT NULL CHECK (origin IN ('imported', 'written'))
    );

    CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      started_at TEXT NOT NULL,
      ended_at TEXT,
      status TEXT NOT NULL
    );
  `,
};

/**
 * Files the engine compares with what it saw before. What credits.json said for each agent when the engine last read or wrote it, so that a change made
 * outside the engine (a person refilling an agent, LeMMing spending between our runs) is told apart from
 * the engine's own charges and recorded as a ledger entry instead of being overwritten.
 */
export const creditsFileSeenMigration: Migration = {
  version: 4,
  name: 'credits.json as last seen, unreadable outbox files',
  sql: `
    CREATE TABLE credits_file_seen (
      agent TEXT PRIMARY KEY,
      credits_left_micro INTEGER NOT NULL,
      cost_per_action_micro INTEGER NOT NULL
    ) WITHOUT ROWID;

    -- Outbox files that could not be read, by a hash of their text: each is warned about once, and
    -- again only when it changes.
    CREATE TABLE unreadable_files (
      path TEXT PRIMARY KEY,
      text_sha256 TEXT NOT NULL
    ) WITHOUT ROWID;
  `,
};
