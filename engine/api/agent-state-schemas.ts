import { z } from 'zod';
import { AgentListItem } from './schemas';

/** Where the person puts right what keeps an agent from running: Settings, under Models and providers. */
export const FixPlace = z.enum(['settings']);
export type FixPlace = z.infer<typeof FixPlace>;

/**
 * One thing that keeps an agent from running its next turn: `reason` in plain words (with what fixes
 * it), `short` in a few words for where room is small (a card on the graph), `detail` in the precise
 * words of the command line (file fields, variables; for "Advanced"), and where the person fixes it in
 * the app.
 */
export const WillNotRunReason = z.object({
  reason: z.string(),
  short: z.string(),
  detail: z.string().nullable(),
  fixIn: FixPlace.nullable(),
});
export type WillNotRunReason = z.infer<typeof WillNotRunReason>;

/**
 * An agent's last turn failed: at which tick, why in plain words, and the engine's own words (its error
 * kind and message, for "Advanced"; null when none was recorded).
 */
export const FailedTurn = z.object({ tick: z.int(), why: z.string(), technical: z.string().nullable() });

/**
 * An agent's state, decided once by the engine (engine/app/agent-state.ts) and shown the same on the
 * graph, the Agents list, its page, the run bar and the card. Every state says why in `words`.
 */
export const AgentState = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('ready'),
    words: z.string(),
    /** Its last turn failed and what caused it is fixed since: history, not its state. */
    lastTurnFailed: FailedTurn.nullable(),
  }),
  z.object({
    kind: z.literal('will_not_run'),
    words: z.string(),
    reasons: z.array(WillNotRunReason).min(1),
    /** Its last turn failed (most often for the same reason); null when it did not. */
    lastTurnFailed: FailedTurn.nullable(),
  }),
  z.object({ kind: z.literal('running'), words: z.string() }),
  z.object({
    kind: z.literal('needs_you'),
    words: z.string(),
    /** What waits for the person: a tool call to approve, or a form a tool asks them to fill in. */
    waitingFor: z.enum(['approval', 'form']),
    /** The waiting request (approvals.pending), so a view can lead to its card. */
    requestId: z.string(),
    tool: z.string(),
    /** When it was asked (ISO 8601). */
    since: z.string(),
  }),
  z.object({
    kind: z.literal('failing'),
    words: z.string(),
    /** The tick of the failed turn. */
    sinceTick: z.int(),
    /** The engine's own words for the failure (its error kind and message), for "Advanced"; null when none was recorded. */
    technical: z.string().nullable(),
  }),
  z.object({ kind: z.literal('paused'), words: z.string(), by: z.enum(['person']) }),
  /** The person switched it off: it takes no turns, its due turns are recorded as skipped. */
  z.object({ kind: z.literal('switched_off'), words: z.string() }),
  z.object({ kind: z.literal('out_of_credits'), words: z.string() }),
  /** A budget (its own or the org's) paused it: it skips its turns until resumed or the day or month ends. */
  z.object({ kind: z.literal('over_budget'), words: z.string() }),
  z.object({
    kind: z.literal('invalid_resume'),
    words: z.string(),
    file: z.string(),
    line: z.int().nullable(),
  }),
]);
export type AgentState = z.infer<typeof AgentState>;
export type AgentStateKind = AgentState['kind'];

/** An agent of the Agents list, with its state. */
export const AgentListEntry = AgentListItem.extend({ state: AgentState });
export type AgentListEntry = z.infer<typeof AgentListEntry>;
