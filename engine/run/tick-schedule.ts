import type Database from 'better-sqlite3';
import { MISSED_CAUSE_WORDS, type CatchUp, SkipReason, type MissedCause } from '../api/schedule-schemas';
import type { FirePointGroup } from '../org/schedule';
import { RunPaceQuery } from '../timeline/run-pace';
import { dueDuring, dueTurns, missedTicks, type DueCandidate } from './due-turns';

/** A tick run by a run going on its own: the pause between its ticks. Absent for a step. */
export interface RunPace {
  intervalMs: number;
}

export interface MissedTicks {
  from: number;
  to: number;
  cause: MissedCause;
  message: string;
  catchingUp: string[];
}

export interface TickPlan<T extends DueCandidate> {
  /** The tick to run: the next one, or the first after the ticks that did not run. */
  tick: number;
  missed: MissedTicks | null;
  groups: FirePointGroup<T>[];
  skipped: { agent: T; reason: SkipReason }[];
}

/**
 * Decides what a tick runs (docs/ARCHITECTURE.md, “Due turns”): the ticks that did not run while the app
 * was closed or the computer slept (recorded once, never replayed), and who is due, from the timeline's
 * last tick and the engine's clock.
 */
export class TickSchedule {
  private readonly pace: RunPaceQuery;
  /** This engine ran a tick of a run: a gap after it is the computer sleeping, not the app closed. */
  private ranInRun = false;

  constructor(
    db: Database.Database,
    private readonly clock: () => Date,
  ) {
    this.pace = new RunPaceQuery(db);
  }

  plan<T extends DueCandidate>(input: {
    nextTick: number;
    run: RunPace | null;
    agents: readonly T[];
    /** Some turns of `nextTick` are committed already (a tick resumed after a kill): it is run, not skipped over. */
    resumingTick: boolean;
    catchUp: CatchUp;
  }): TickPlan<T> {
    const now = this.clock();
    const last = this.pace.lastTick();
    const continuing =
      input.run !== null &&
      last !== null &&
      last.intervalMs !== null &&
      !last.endedAfter &&
      !input.resumingTick &&
      last.tick === input.nextTick - 1;
    // Ticks already recorded as missed, whose tick then did not complete: skipped over again, not recorded twice.
    const recorded = last?.missedAfter?.from === input.nextTick ? last.missedAfter : null;
    const gap =
      recorded ??
      (continuing && last.intervalMs !== null
        ? missedTicks({ nextTick: input.nextTick, lastTickAt: last.at, now, intervalMs: last.intervalMs })
        : null);
    const catchingUp = recorded
      ? recorded.catchingUp
      : gap && input.catchUp === 'once'
        ? dueDuring(input.agents, gap.from, gap.to).map((agent) => agent.name)
        : [];
    const tick = gap ? gap.to + 1 : input.nextTick;
    const clockSince =
      gap && input.catchUp === 'next_slot' && last?.intervalMs
        ? new Date(now.getTime() - last.intervalMs)
        : (last?.at ?? new Date(now.getTime() - 60_000));
    const { groups, skipped } = dueTurns({
      tick,
      now,
      clockSince,
      agents: input.agents,
      catchingUp: new Set(catchingUp),
    });
    const missed =
      gap && !recorded ? { ...gap, catchingUp, ...this.missedWords(gap, catchingUp, input.catchUp) } : null;
    return { tick, missed, groups, skipped };
  }

  /** Call after each tick is run. */
  ran(run: RunPace | null): void {
    this.ranInRun = run !== null;
  }

  private missedWords(
    gap: { from: number; to: number },
    catchingUp: string[],
    catchUp: CatchUp,
  ): { cause: MissedCause; message: string } {
    const cause: MissedCause = this.ranInRun ? 'asleep' : 'app_closed';
    const ticks =
      gap.from === gap.to ? `Tick ${gap.from} did not run` : `Ticks ${gap.from}–${gap.to} did not run`;
    const after =
      catchUp === 'next_slot'
        ? 'Agents that were due in them wait for their next turn.'
        : catchingUp.length === 0
          ? 'No agent was due in them.'
          : `${catchingUp.join(', ')} ${catchingUp.length === 1 ? 'takes' : 'take'} one turn now to catch up.`;
    return { cause, message: `${ticks}: ${MISSED_CAUSE_WORDS[cause]}. ${after}` };
  }
}

/** Why a staged turn was skipped, from its `skip` event. */
export function skipReasonOf(events: readonly { kind: string; reason?: unknown }[]): SkipReason | undefined {
  const parsed = SkipReason.safeParse(events.find((event) => event.kind === 'skip')?.reason);
  return parsed.success ? parsed.data : undefined;
}
