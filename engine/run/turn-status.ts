import type Database from 'better-sqlite3';
import type { TurnStatus } from '../api/run-schemas';

/**
 * How each agent's latest committed turn ended, read from the engine's `turns` table: what the org
 * graph shows as "failing". Walks the (tick, agent) key from the newest tick down, so an agent that
 * ran recently is found in a few steps.
 */
export class TurnStatusReader {
  private readonly selectLatest: Database.Statement;

  constructor(db: Database.Database) {
    this.selectLatest = db.prepare(
      'SELECT tick, status FROM turns WHERE agent = ? ORDER BY tick DESC LIMIT 1',
    );
  }

  latest(agent: string): { tick: number; status: TurnStatus } | null {
    return (this.selectLatest.get(agent) as { tick: number; status: TurnStatus } | undefined) ?? null;
  }
}
