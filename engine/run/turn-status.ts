import type Database from 'better-sqlite3';
import type { TurnStatus } from '../api/run-schemas';

/** An `error` event's reason (the engine's kind of failure), message and typed failure, as stored. */
export interface RecordedError {
  reason: string;
  message: string;
  /** Absent in events older than typed failures. */
  failure?: unknown;
}

/**
 * How each agent's latest committed turn ended, read from the engine's `turns` table: what the org
 * graph shows as "failing". Walks the (tick, agent) key from the newest tick down, so an agent that
 * ran recently is found in a few steps.
 */
export class TurnStatusReader {
  private readonly selectLatest: Database.Statement;
  private readonly selectError: Database.Statement;

  constructor(db: Database.Database) {
    this.selectLatest = db.prepare(
      'SELECT tick, status FROM turns WHERE agent = ? ORDER BY tick DESC LIMIT 1',
    );
    // events_by_agent_kind ends in seq, so the newest error of the agent is the first entry read.
    this.selectError = db.prepare(
      "SELECT tick, json FROM events WHERE agent = ? AND kind = 'error' ORDER BY seq DESC LIMIT 1",
    );
  }

  /** What the agent's failed turn at `tick` recorded as its error, in the engine's words; null when none was. */
  errorOf(agent: string, tick: number): RecordedError | null {
    const row = this.selectError.get(agent) as { tick: number | null; json: string } | undefined;
    if (!row || row.tick !== tick) return null;
    try {
      const event = JSON.parse(row.json) as { reason?: unknown; message?: unknown; failure?: unknown };
      if (typeof event.message !== 'string') return null;
      return {
        reason: typeof event.reason === 'string' ? event.reason : '',
        message: event.message,
        ...(event.failure !== undefined ? { failure: event.failure } : {}),
      };
    } catch {
      return null;
    }
  }

  latest(agent: string): { tick: number; status: TurnStatus } | null {
    return (this.selectLatest.get(agent) as { tick: number; status: TurnStatus } | undefined) ?? null;
  }
}
