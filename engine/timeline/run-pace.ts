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
  /** Ticks recorded as missed after this tick, whose next tick has not completed (it failed, or was cut off). */
  missedAfter: { from: number; to: number; catchingUp: string[] } | null;
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
    const missed = this.latestOfKind.get('ticks_missed') as EventRow | undefined;
    return {
      tick: completed.tick,
      at,
      intervalMs: intervalOf(completed.json),
      endedAfter: ended !== undefined && ended.seq > completed.seq,
      missedAfter: missed !== undefined && missed.seq > completed.seq ? missedRange(missed.json) : null,
    };
  }
}

interface EventRow {
  seq: number;
  tick: number | null;
  time: string | null;
  json: string;
}

function parsed(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function intervalOf(json: string): number | null {
  const value = parsed(json).interval_ms;
  return typeof value === 'number' && value > 0 ? value : null;
}

function missedRange(json: string): LastTick['missedAfter'] {
  const event = parsed(json);
  const { from, to, catching_up: catchingUp } = event;
  if (!Number.isInteger(from) || !Number.isInteger(to)) return null;
  return {
    from: from as number,
    to: to as number,
    catchingUp: Array.isArray(catchingUp) ? catchingUp.filter((name) => typeof name === 'string') : [],
  };
}
