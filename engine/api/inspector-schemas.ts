import { z } from 'zod';
import { HumanImportance } from './credit-schemas';
import { ToolAttachment } from './timeline-events';

/** Which turn to inspect: an agent's turn at one tick (the engine runs at most one per tick). */
export const TurnRef = z.object({ agent: z.string().min(1).max(256), tick: z.int() }).strict();
export type TurnRef = z.infer<typeof TurnRef>;

/** What a chat message of the prompt is, in words the inspector shows. */
export const PromptPart = z.enum([
  'system',
  'role',
  'skills',
  'memory',
  'inbox',
  'user',
  'assistant',
  'tool',
]);
export type PromptPart = z.infer<typeof PromptPart>;

export const PromptMessage = z.object({ role: z.string(), part: PromptPart, content: z.string() });
export type PromptMessage = z.infer<typeof PromptMessage>;

const Seq = z.int().positive();

export const InspectedModelCall = z.object({
  seq: Seq,
  round: z.int().nullable(),
  model: z.string(),
  provider: z.string(),
  latencyMs: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  cachedInputTokens: z.number().nullable(),
  /** Credits, as the engine priced the call. */
  cost: z.number().nullable(),
  stop: z.string().nullable(),
  /** What the model answered (its text), or null when the call failed. */
  answer: z.string().nullable(),
  /** The call's error in the provider's words, when it failed. */
  error: z.string().nullable(),
  /** Set when an MCP server asked it during one of the turn's tool calls (shown under that call). */
  askedBy: z.object({ server: z.string(), callId: z.string().nullable(), tool: z.string() }).optional(),
});
export type InspectedModelCall = z.infer<typeof InspectedModelCall>;

/** One tool call with the result it got (null when the turn ended before a result was recorded). */
export const InspectedToolCall = z.object({
  callSeq: Seq,
  resultSeq: Seq.nullable(),
  round: z.int().nullable(),
  tool: z.string(),
  /** The arguments as JSON text. */
  args: z.string(),
  success: z.boolean().nullable(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  /**
   * The call was started before the app stopped, and whether it finished is not known: the turn was cut
   * off there (and, when run again, did not run the call a second time).
   */
  startedBeforeStop: z.boolean(),
  /** The images and sounds the result gave, by reference (their bytes: timeline.attachment). */
  attachments: z.array(ToolAttachment).optional(),
  /** The result's structured content (an MCP tool's), as JSON text. */
  structured: z.string().optional(),
  /** In a rehearsal: the call was held back, not run; its result is what the model was told instead. */
  heldBack: z.literal(true).optional(),
});
export type InspectedToolCall = z.infer<typeof InspectedToolCall>;

/** One step of the turn, in the order it happened. */
export const TurnStep = z.discriminatedUnion('type', [
  z.object({ type: z.literal('model_call'), call: InspectedModelCall }),
  z.object({ type: z.literal('tool_call'), call: InspectedToolCall }),
  z.object({
    type: z.literal('memory_update'),
    seq: Seq,
    key: z.string(),
    op: z.string(),
    /** What `value` holds: the items appended, the objects merged in (one JSON a line), or the value. */
    shows: z.enum(['appended', 'merged', 'value']),
    value: z.string().nullable(),
  }),
  z.object({
    type: z.literal('message'),
    seq: Seq,
    to: z.array(z.string()),
    messageKind: z.string(),
    text: z.string(),
  }),
  z.object({ type: z.literal('credit'), seq: Seq, amount: z.number(), reason: z.string() }),
  /** Everything else (warnings, notes, refusals, errors, events of kinds this app does not know). */
  z.object({ type: z.literal('other'), seq: Seq, kind: z.string(), text: z.string() }),
]);
export type TurnStep = z.infer<typeof TurnStep>;

/** The raw events behind the turn: their JSON is fetched with timeline.get when the user opens it. */
export const TurnEventRef = z.object({ seq: Seq, kind: z.string(), known: z.boolean(), bytes: z.int() });

export const TurnDetail = z.object({
  agent: z.string(),
  tick: z.int(),
  turnId: z.string().nullable(),
  runId: z.string().nullable(),
  startedAt: z.string().nullable(),
  status: z.string().nullable(),
  durationMs: z.number().nullable(),
  /** Credits the turn spent, as turn_completed recorded them. */
  spent: z.number().nullable(),
  /** The first model call's prompt as chat messages; empty when the turn called no model. */
  prompt: z.array(PromptMessage),
  /** New messages the turn was shown, by who sent them. */
  inboxFrom: z.array(z.string()),
  steps: z.array(TurnStep),
  totals: z.object({
    modelCalls: z.int(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    modelCost: z.number(),
    credits: z.number(),
  }),
  events: z.array(TurnEventRef),
  /** True when the turn has more events than the inspector reads; the timeline shows them all. */
  truncated: z.boolean(),
});
export type TurnDetail = z.infer<typeof TurnDetail>;

export const TickTurn = z.object({
  agent: z.string(),
  startedAt: z.string().nullable(),
  /** Milliseconds after the tick's first turn started. */
  offsetMs: z.number(),
  durationMs: z.number().nullable(),
  status: z.string().nullable(),
  spent: z.number().nullable(),
});
export type TickTurn = z.infer<typeof TickTurn>;

export const TickTurns = z.object({ tick: z.int(), turns: z.array(TickTurn) });
export type TickTurns = z.infer<typeof TickTurns>;

/** An agent's newest turns, newest first, for its page. */
export const AgentTurns = z.object({
  agent: z.string(),
  turns: z.array(
    z.object({ tick: z.int(), status: z.string().nullable(), durationMs: z.number().nullable() }),
  ),
});

/** The human's reply to a message of the inbox, shown under it. */
export const HumanReply = z.object({
  text: z.string(),
  tick: z.int().nullable(),
  sentAt: z.string().nullable(),
});
export type HumanReply = z.infer<typeof HumanReply>;

/** A message the human can read: addressed to the human, or to everyone by an agent the human reads. */
export const HumanInboxMessage = z.object({
  seq: Seq,
  from: z.string(),
  tick: z.int().nullable(),
  kind: z.string(),
  text: z.string(),
  /** True when the message names the human; false when it was sent to everyone. */
  addressed: z.boolean(),
  importance: HumanImportance.nullable(),
  sentAt: z.string().nullable(),
  read: z.boolean(),
  /** The human's replies to it, oldest first. */
  replies: z.array(HumanReply),
});
export type HumanInboxMessage = z.infer<typeof HumanInboxMessage>;

export const HumanInboxPage = z.object({
  messages: z.array(HumanInboxMessage),
  unread: z.int().nonnegative(),
  /** Pass as `before` for older messages; null at the end. */
  nextBefore: z.int().nullable(),
});
export type HumanInboxPage = z.infer<typeof HumanInboxPage>;

export const HumanInboxQuery = z
  .object({ before: z.int().positive().optional(), limit: z.int().min(1).max(200).optional() })
  .strict();

export const MarkReadInput = z
  .object({ seqs: z.array(Seq).max(1000).optional(), all: z.boolean().optional() })
  .strict();

export const ReplyInput = z
  .object({
    seq: Seq,
    text: z.string().trim().min(1, 'Write the reply first.').max(20_000),
    importance: HumanImportance.optional(),
  })
  .strict();
