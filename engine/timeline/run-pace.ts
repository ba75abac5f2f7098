import type Database from 'better-sqlite3';

/** The org's last tick as the timeline has it, for missed ticks and clock schedules. */
export interface LastTick {
  tick: number;
  /** When it completed. */
  at: Date;
  /** The pause between ticks of the run that ran it; null for a tick run on its own (a step). */
  intervalMs: number | null;
  /** A run ended (the person stopped or paused it, or it reached its end) after this tick. */
  endedAfter: boolean;
}

/** Reads the org's last completed tick and whether its run was ended after it, from three indexed lookups. */
export class RunPaceQuery {
  private readonly latestOfKind: Database.Statement;

  constructor(db: Database.Database) {
    this.latestOfKind = db.prepare(
      'SELECT seq, tick, time, json FROM events WHERE kind = ? ORDER BY seq DESC LIMIT 1',
    );
  }

  lastTick(): LastTick | null {
    const completed = this.latestOfKind.get('tick_completed') as EventRow | undefined;
    if (!completed || completed.time === null || completed.tick === null) return null;
    const at = new Date(completed.time);
    if (Number.isNaN(at.getTime())) return null;
    const ended = this.latestOfKind.get('run_ended') as EventRow | undefined;
    const interval = intervalOf(completed.json);
    return {
      tick: completed.tick,
      at,
      intervalMs: interval,
      endedAfter: ended !== undefined && ended.seq > completed.seq,
    };
  }
}

interface EventRow {
  seq: number;
  tick: number | null;
  time: string | null;
  json: string;
}

function intervalOf(json: string): number | null {
  try {
    const value = (JSON.parse(json) as { interval_ms?: unknown }).interval_ms;
    return typeof value === 'number' && value > 0 ? value : null;
  } catch {
    return null;
  }
}
