import type { Migration } from './migrate';

/**
 * Turns parked on an approval request (docs/ARCHITECTURE.md, "Parked turns"): what each holds, so it
 * goes on where it stopped once answered, across a restart too. A row goes when its turn commits.
 */
export const parkedTurnsMigration: Migration = {
  version: 9,
  name: 'parked turns',
  sql: `
    CREATE TABLE parked_turns (
      turn TEXT PRIMARY KEY,              -- the turn's id (turns.turn once it commits)
      tick INTEGER NOT NULL,              -- the tick it belongs to, and commits under
      agent TEXT NOT NULL,
      run_id TEXT NOT NULL,
      request_id TEXT NOT NULL UNIQUE,
      request TEXT NOT NULL,              -- the ApprovalRequest (JSON, redacted)
      state TEXT NOT NULL,                -- the ParkedTurnState (JSON, redacted)
      parked_seq INTEGER NOT NULL,        -- the turn_parked event: calls started after it are the resumed part's
      answer TEXT                         -- the ApprovalAnswer (JSON) once given; NULL while it waits
    ) WITHOUT ROWID;
    CREATE INDEX parked_turns_by_agent ON parked_turns (agent);
  `,
};
