import { z } from 'zod';
import { NextDue } from './schedule-schemas';
import { RunState } from './run-schemas';
import { AgentState } from './agent-state-schemas';
import { OrgSummary } from './schemas';

/** LeMMing's rule for agent names: they become folder names and outbox owners. */
export const AgentName = z
  .string()
  .min(1, 'Give the agent a name.')
  .max(128, 'An agent name may be at most 128 characters.')
  .regex(/^[A-Za-z0-9_-]+$/, 'An agent name may use only letters, digits, "_" and "-".');

/** An agent as the channels address it: its resume's name (or its folder, when the resume cannot be read). */
export const AgentRef = z.object({ agent: z.string().min(1, 'Name the agent.').max(256) }).strict();

export const OrgStatus = OrgSummary.extend({
  /** The tick the next step runs; null when tick.json cannot be read. */
  nextTick: z.int().nullable(),
  /** The newest timeline event; the live tail continues after it. */
  latestSeq: z.int().nonnegative(),
  run: RunState,
});
export type OrgStatus = z.infer<typeof OrgStatus>;

export const Position = z
  .object({ x: z.number().finite().min(-1e7).max(1e7), y: z.number().finite().min(-1e7).max(1e7) })
  .strict();
export type Position = z.infer<typeof Position>;

export const GraphNode = z.object({
  name: z.string(),
  folder: z.string(),
  title: z.string().nullable(),
  state: AgentState,
  /** Balance in credits; null until the agent's first turn seeds it. */
  balance: z.number().nullable(),
  /** What each of its turns costs before any model or tool charge (credits.json's cost_per_action); null when the file cannot be read. */
  costPerAction: z.number().nullable(),
  /** Where the user put the node; null when never placed. */
  position: Position.nullable(),
  /** Reads every other agent's outbox (`*`). */
  readsAll: z.boolean(),
  /** Names in its read_outboxes or send_outboxes that no agent has. */
  unknownNames: z.array(z.string()),
  /** May address any agent: no send_outboxes limit, or `*`. */
  sendsAnywhere: z.boolean(),
  /** When it runs; null when its resume cannot be read. */
  schedule: z
    .object({
      runEveryNTicks: z.int(),
      phaseOffset: z.int(),
      /** Where in a tick it runs among the others, in [0, 1): LeMMing's order. */
      firePoint: z.number(),
      /** It takes a turn in the org's next tick. */
      firesNextTick: z.boolean(),
      /** Its clock schedule (cron's five fields), which replaces the tick fields in this app; null when none. */
      clock: z.string().nullable(),
      /** The person switched it off: it takes no turns. */
      switchedOff: z.boolean(),
      nextDue: NextDue,
    })
    .nullable(),
});
export type GraphNode = z.infer<typeof GraphNode>;

/**
 * Messages flow `from` → `to`: `read` when `to` reads `from`'s outbox, `send` when `from` may address
 * `to` (its send_outboxes).
 */
export const GraphEdge = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(['read', 'send']),
  /** The reader reads all outboxes (`*`) rather than this one by name. */
  viaWildcard: z.boolean(),
});
export type GraphEdge = z.infer<typeof GraphEdge>;

/** Messages that went from one agent to another over the last few ticks. */
export const GraphTraffic = z.object({
  /** Counted from this tick on, through the newest. */
  fromTick: z.int(),
  windowTicks: z.int().positive(),
  counts: z.array(z.object({ from: z.string(), to: z.string(), count: z.int().positive() })),
});
export type GraphTraffic = z.infer<typeof GraphTraffic>;

export const OrgGraph = z.object({
  nodes: z.array(GraphNode),
  edges: z.array(GraphEdge),
  /** The tick the next step runs; null when tick.json cannot be read. */
  nextTick: z.int().nullable(),
  traffic: GraphTraffic,
});
export type OrgGraph = z.infer<typeof OrgGraph>;

export const SavePositionsInput = z
  .object({
    positions: z
      .record(AgentName, Position)
      .refine((positions) => Object.keys(positions).length <= 10_000, 'At most 10000 positions at once.'),
  })
  .strict();

export const ScheduleInput = z
  .object({
    run_every_n_ticks: z
      .int('run_every_n_ticks must be a whole number')
      .min(1, 'run_every_n_ticks must be at least 1'),
    phase_offset: z.int('phase_offset must be a whole number'),
  })
  .strict();

export const CreditsInput = z
  .object({
    max_credits: z.number().finite().nonnegative('max_credits must not be negative'),
    soft_cap: z.number().finite().nonnegative('soft_cap must not be negative'),
  })
  .strict();

export const CreateAgentInput = z
  .object({
    name: AgentName,
    title: z.string().trim().min(1, 'Give the agent a title.').max(200),
    instructions: z.string().max(100_000).optional(),
    /** A models.json key; the first model of the org when absent. */
    model: z.string().min(1).max(200).optional(),
    readOutboxes: z.array(z.string().min(1).max(128)).max(1000).optional(),
    tools: z.array(z.string().min(1).max(200)).max(1000).optional(),
    schedule: ScheduleInput.optional(),
    credits: CreditsInput.optional(),
  })
  .strict();

export const RemovedAgent = z.object({
  /** Pass to org.restoreAgent to undo. */
  removedId: z.string(),
  folder: z.string(),
  /** Where the folder was moved, relative to the org. */
  movedTo: z.string(),
});
export type RemovedAgent = z.infer<typeof RemovedAgent>;
