import { budgetSpendMigration } from './budget-spend-migration';
import { creditsFileSeenMigration, engineStateMigration } from './engine-state-migration';
import { eventCountsMigration } from './event-counts-migration';
import { humanInboxMigration } from './human-inbox-migration';
import { humanRepliesMigration } from './human-replies-migration';
import { parkedTurnsMigration } from './parked-turns-migration';
import type { Migration } from './migrate';

/**
 * The timeline database's schema, one step per entry, applied in order and never edited once
 * released: a changed step is detected by its checksum. Add a new entry with the next version.
 */
export const timelineMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'events',
    sql: `
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        agent TEXT,
        tick INTEGER,
        run_id TEXT,
        time TEXT,
        json TEXT NOT NULL
      );
      -- The rowid (seq) ends every index entry, so each index also serves "ORDER BY seq" keyset pages.
      CREATE INDEX events_by_agent ON events (agent);
      CREATE INDEX events_by_kind ON events (kind);
      CREATE INDEX events_by_agent_kind ON events (agent, kind);
      CREATE INDEX events_by_tick ON events (tick);
      CREATE INDEX events_by_run ON events (run_id);
      -- Where each tick's events lie in seq order. The engine writes ticks in increasing order, so a
      -- tick range maps to a narrow seq window that keyset pages walk instead of sorting the range.
      CREATE TABLE event_ticks (
        tick INTEGER PRIMARY KEY,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        events INTEGER NOT NULL
      );
      -- Contentless: the text is derived from events.json, so only the index is stored; rowid = seq.
      CREATE VIRTUAL TABLE events_search USING fts5(
        text, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2'
      );
      -- Merge 16 segments at a time instead of 4: each posting is rewritten fewer times as the index
      -- grows (measured: a third less CPU and I/O for search indexing at 200k events).
      INSERT INTO events_search (events_search, rank) VALUES ('automerge', 16);
    `,
  },
  engineStateMigration,
  {
    version: 3,
    name: 'search follows the events, fewer indexes',
    sql: `
      -- Appends write events only; the search index catches up to them later (catchUpSearch), in seq
      -- order, and this row records the newest seq it has indexed.
      CREATE TABLE search_progress (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        indexed_through INTEGER NOT NULL
      );
      -- Events written before this step were indexed as they were appended.
      INSERT INTO search_progress (id, indexed_through) SELECT 1, coalesce(max(seq), 0) FROM events;

      -- Where each run's events lie in seq order, like event_ticks: a run's events are written
      -- together, so a run filter walks a narrow seq window instead of needing an index of its own.
      CREATE TABLE event_runs (
        run_id TEXT PRIMARY KEY,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        events INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO event_runs (run_id, first_seq, last_seq, events)
        SELECT run_id, min(seq), max(seq), count(*) FROM events WHERE run_id IS NOT NULL GROUP BY run_id;
      -- Every append pays for every index, most for those it inserts into at many places. Agent-only
      -- pages merge arms of events_by_agent_kind, one per kind, instead of an index by agent alone;
      -- a text search checks each hit's agent by its seq in events_by_seq_agent, where every append
      -- lands at the right edge.
      DROP INDEX events_by_run;
      DROP INDEX events_by_agent;
      CREATE INDEX events_by_seq_agent ON events (seq, agent);
    `,
  },
  creditsFileSeenMigration,
  humanInboxMigration,
  eventCountsMigration,
  humanRepliesMigration,
  budgetSpendMigration,
  parkedTurnsMigration,
];
