import type Database from 'better-sqlite3';
import { StatementCache } from './sqlite';

/** One parked turn as stored: its request, state and answer as JSON text (redacted before they come here). */
export interface ParkedTurnRow {
  turn: string;
  tick: number;
  agent: string;
  runId: string;
  requestId: string;
  request: string;
  state: string;
  parkedSeq: number;
  answer: string | null;
}

/** The parked_turns table (parked-turns-migration.ts): turns waiting for the person, oldest first. */
export class ParkedTurnStore {
  private readonly statements: StatementCache;

  constructor(db: Database.Database) {
    this.statements = new StatementCache(db, 8);
  }

  /** Keeps a turn parked; a turn that parks again (a later call asks) replaces its row. */
  keep(row: Omit<ParkedTurnRow, 'answer'>): void {
    this.statements
      .get(
        'INSERT OR REPLACE INTO parked_turns (turn, tick, agent, run_id, request_id, request, state, parked_seq, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)',
      )
      .run(row.turn, row.tick, row.agent, row.runId, row.requestId, row.request, row.state, row.parkedSeq);
  }

  /** Every parked turn, the one parked first first. */
  all(): ParkedTurnRow[] {
    return this.statements
      .get(
        'SELECT turn, tick, agent, run_id AS runId, request_id AS requestId, request, state, parked_seq AS parkedSeq, answer FROM parked_turns ORDER BY parked_seq',
      )
      .all() as ParkedTurnRow[];
  }

  /** Gives a waiting request its answer; false when no request waits under that id. */
  answer(requestId: string, answer: string): boolean {
    return (
      this.statements
        .get('UPDATE parked_turns SET answer = ? WHERE request_id = ? AND answer IS NULL')
        .run(answer, requestId).changes > 0
    );
  }

  /** A request asked again (after a restart): its new expiry, in the run that asks it now. */
  askAgain(turn: string, request: string, runId: string): void {
    this.statements
      .get('UPDATE parked_turns SET request = ?, run_id = ? WHERE turn = ?')
      .run(request, runId, turn);
  }

  /** The turn is no longer parked: it committed (inside that commit's transaction). */
  forget(turn: string): void {
    this.statements.get('DELETE FROM parked_turns WHERE turn = ?').run(turn);
  }
}
