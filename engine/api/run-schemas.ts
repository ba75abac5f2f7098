import { z } from 'zod';
import { AgentState, FixPlace } from './agent-state-schemas';
import { SkipReason } from './schedule-schemas';

/**
 * Where a run is: `idle` (nothing running), `running` (ticks follow each other), `pausing` (the tick in
 * progress finishes, then the run waits), `paused`, `stepping` (one tick on request), `stopping` (the
 * tick in progress finishes, then the run ends).
 */
export const RunPhase = z.enum(['idle', 'running', 'pausing', 'paused', 'stepping', 'stopping']);
export type RunPhase = z.infer<typeof RunPhase>;

/** The person paused the run (or asked to, and the tick in progress is finishing): no agent starts a turn. */
export const isPaused = (phase: RunPhase): boolean => phase === 'paused' || phase === 'pausing';

/** Why the last run ended. */
export const RunEndReason = z.enum(['stopped', 'tick_limit', 'max_turns', 'error']);
export type RunEndReason = z.infer<typeof RunEndReason>;

/** The program that holds an org's run lock: only it runs ticks of the org until it ends. */
export const RunLockHolder = z.object({
  pid: z.int(),
  host: z.string(),
  /** ISO time the lock was taken. */
  since: z.string(),
  /** What is running it, e.g. `lemming run` or `LeMMing Desktop`. */
  program: z.string(),
});
export type RunLockHolder = z.infer<typeof RunLockHolder>;

export const RunState = z.object({
  phase: RunPhase,
  /** The tick the next step runs (tick.json's current_tick); null before it has been read. */
  nextTick: z.int().nullable(),
  /** The tick being run right now. */
  tickInProgress: z.int().nullable(),
  /** Ticks completed since the run started (steps included). */
  ticksRun: z.int().nonnegative(),
  /** The run ends after this many ticks; null runs until stopped or until `lastTick`. */
  tickLimit: z.int().positive().nullable(),
  /** The run ends once this tick has run (org_config.json max_turns); null for no end. */
  lastTick: z.int().positive().nullable(),
  /** Pause between ticks while running. */
  intervalMs: z.int().nonnegative(),
  /** How the last run ended; null while none has ended. */
  ended: z.object({ reason: RunEndReason, message: z.string(), atTick: z.int().nullable() }).nullable(),
  /** Another program is running the org (it holds the run lock): this one cannot run it until that ends. */
  heldElsewhere: RunLockHolder.nullable(),
});
export type RunState = z.infer<typeof RunState>;

/** How an agent's turn ended. */
export const TurnStatus = z.enum(['completed', 'failed', 'skipped']);
export type TurnStatus = z.infer<typeof TurnStatus>;

/**
 * A turn in a tick's report: how it ended, that a resumed run found it already committed, or that it
 * parked waiting for the person (it is committed later, when it resumes).
 */
export const TurnOutcome = z.enum([...TurnStatus.options, 'already_committed', 'parked']);
export type TurnOutcome = z.infer<typeof TurnOutcome>;

/** What one tick did: each due agent's turn, in commit order; a skipped one says why. */
export const TickReport = z.object({
  tick: z.int(),
  turns: z.array(z.object({ agent: z.string(), status: TurnOutcome, reason: SkipReason.optional() })),
  /** Parked turns of earlier ticks that went on at the start of this one (committed under their own tick). */
  resumed: z.array(z.object({ agent: z.string(), tick: z.int(), status: TurnOutcome })).optional(),
});
export type TickReport = z.infer<typeof TickReport>;

/**
 * An agent that will run with a tool that cannot work: `reason` in plain words, `detail` in the precise
 * words of the command line (shown under Advanced).
 */
export const AgentReadinessNote = z.object({
  agent: z.string(),
  reason: z.string(),
  detail: z.string().nullable(),
  fixIn: FixPlace.nullable(),
});
export type AgentReadinessNote = z.infer<typeof AgentReadinessNote>;

/**
 * An agent that will not run its turns: its state from the engine's one state function (will not run,
 * out of credits, or an unusable resume), and the line the run bar shows for it, made from that state.
 */
export const BlockedAgent = AgentReadinessNote.extend({ state: AgentState });
export type BlockedAgent = z.infer<typeof BlockedAgent>;

/**
 * Before a run: whether the org may run at all (null when it may; else it is not trusted as it is now,
 * and no tick starts until the person trusts it), the agents that will not run their turns, and those that
 * will with a tool that cannot work.
 */
export const RunReadiness = z.object({
  notTrusted: z.object({ state: z.enum(['untrusted', 'changed']), reason: z.string() }).nullable(),
  blocked: z.array(BlockedAgent),
  warnings: z.array(AgentReadinessNote),
});
export type RunReadiness = z.infer<typeof RunReadiness>;
