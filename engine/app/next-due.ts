import { isHumanOperator } from '../api/human-operator';
import type { NextDue } from '../api/schedule-schemas';
import { readOrgConfig } from '../org/org-config-file';
import type { Resume } from '../org/resume-schema';
import { dueCandidate, nextDue, type TickPace } from '../run/due-turns';
import type { OrgContext } from './org-context';

/**
 * Where the org's ticks are: the next tick, now (the engine's clock), and the time between ticks (the
 * run's while one goes, else the org's base_turn_seconds, which a run started from the app uses).
 */
export async function tickPace(context: OrgContext): Promise<TickPace> {
  const run = context.controller.state();
  const nextTick = run.nextTick ?? (await context.engine.currentTick().catch(() => 1));
  if (run.phase !== 'idle' && run.intervalMs > 0)
    return { nextTick, now: context.engine.now(), intervalMs: run.intervalMs };
  const config = await readOrgConfig(context.orgPath);
  return {
    nextTick,
    now: context.engine.now(),
    intervalMs: config.ok ? Math.round(config.value.base_turn_seconds * 1000) : null,
  };
}

/** An agent's next due time in words, for its card, its page and `lemming status`; the human operator takes no turns. */
export function nextDueOf(agent: { folder: string; resume: Resume }, pace: TickPace): NextDue {
  if (isHumanOperator(agent.folder)) return { tick: null, at: null, words: 'never (this is you)' };
  return nextDue(dueCandidate(agent), pace);
}
