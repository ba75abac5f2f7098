import { z } from 'zod';
import { NextDue } from './schedule-schemas';
import { HumanImportance } from './credit-schemas';
import { RunLockHolder, TurnStatus } from './run-schemas';
import { AgentListItem } from './schemas';

/** One agent in `lemming status` and `org.status`: its schedule, balance and last turn, or why it is invalid. */
export const AgentStatus = z.discriminatedUnion('valid', [
  z.object({
    folder: z.string(),
    name: z.string(),
    title: z.string(),
    valid: z.literal(true),
    model: z.string(),
    firesNextTick: z.boolean(),
    nextFiringTicks: z.array(z.int()),
    /** When it next takes its turn, in words ("in 3 ticks, about 2 minutes", "today at 09:00", "switched off"). */
    nextDue: NextDue,
    /** Null until the agent's balance is seeded by its first tick. */
    credits: z.number().nullable(),
    lastTurn: z.object({ tick: z.int(), status: TurnStatus }).nullable(),
  }),
  AgentListItem.pick({ folder: true, name: true, problems: true }).extend({ valid: z.literal(false) }),
]);
export type AgentStatus = z.infer<typeof AgentStatus>;

/** What an org looks like without running it: the next tick, who runs it, each agent. */
export const OrgStatusReport = z.object({
  org: z.string(),
  nextTick: z.int(),
  runningBy: RunLockHolder.nullable(),
  agents: z.array(AgentStatus),
});
export type OrgStatusReport = z.infer<typeof OrgStatusReport>;

export const InboxInput = z.object({ agent: z.string().min(1) }).strict();

/** A message as an agent's next turn is shown it. */
export const InboxMessage = z.object({
  seq: z.int(),
  tick: z.int().nullable(),
  sender: z.string(),
  /** The outbox entry's kind; null reads as a message. */
  kind: z.string().nullable(),
  importance: HumanImportance.nullable(),
  text: z.string(),
  file: z.string(),
  /** The outbox entry exactly as written. */
  entry: z.unknown(),
});
export type InboxMessage = z.infer<typeof InboxMessage>;

/** What an agent will be shown on its next turn: new messages, then earlier ones. */
export const AgentInbox = z.object({
  agent: z.string(),
  fresh: z.array(InboxMessage),
  earlier: z.array(InboxMessage),
  moreWaiting: z.boolean(),
});
export type AgentInbox = z.infer<typeof AgentInbox>;
