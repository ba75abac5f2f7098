import { z } from 'zod';
import { ApprovalAnswerKind, ApprovalSource, FormRequest, FormValues } from './approval-schemas';
import { BudgetName, BudgetScope } from './budget-schemas';
import { CreditEntryKind } from './credit-schemas';
import { Failure } from './failure';
import { Problem } from './problem';
import { TurnOutcome, TurnStatus } from './run-schemas';
import { MissedCause } from './schedule-schemas';

/**
 * The events the engine writes to the timeline, one schema per kind, and a catch-all that keeps any
 * other kind (an imported JSON Lines file, a newer or older engine) with every field it has.
 */

/** The indexed fields any event may carry. */
const EventBase = {
  /** ISO 8601 time the event happened. */
  time: z.string().nullish(),
  /** Id of the engine session (run) the event belongs to. */
  run: z.string().nullish(),
  tick: z.int().nullish(),
  agent: z.string().nullish(),
  /** Id of the agent turn the event belongs to. */
  turn: z.string().nullish(),
};

/**
 * One known kind. Its schema names the fields the engine writes (so a producer that misspells one
 * does not compile); parsing keeps the check and drops nothing from the stored text, which is kept
 * exactly as written.
 */
function eventOf<K extends string, S extends z.ZodRawShape>(kind: K, shape: S) {
  return z.object({ ...EventBase, kind: z.literal(kind), ...shape });
}

/** An image or sound a tool gave, kept beside the timeline under its sha256 (engine/timeline/attachments.ts). */
export const ToolAttachment = z.object({
  kind: z.enum(['image', 'audio']),
  mime_type: z.string(),
  bytes: z.int().nonnegative(),
  sha256: z.string(),
});
export type ToolAttachment = z.infer<typeof ToolAttachment>;

/**
 * LeMMing's tool result: prompts written for LeMMing read these three fields. An MCP tool's result also
 * keeps its images and sounds (`attachments`, by reference) and its structured content (`structured`).
 */
export const ToolResult = z.object({
  success: z.boolean(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  /** What failed, typed where it was born (a refused or failed request, a server's error status, a refusal). */
  failure: Failure.optional(),
  attachments: z.array(ToolAttachment).optional(),
  structured: z.unknown().optional(),
});
export type ToolResult = z.infer<typeof ToolResult>;

const TokenUsage = z.looseObject({
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Of inputTokens, read from the provider's prompt cache / written to it. */
  cachedInputTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
});

/** An outbox entry as a message event carries it: LeMMing's keys, any others kept. */
const MessageEntry = z.looseObject({
  id: z.string().optional(),
  tick: z.number().optional(),
  agent: z.string().optional(),
  kind: z.string().optional(),
  payload: z.unknown().optional(),
  recipients: z.array(z.string()).nullish(),
});

/** One thing a rehearsed turn would have done; `args` are the tool's arguments, redacted as all else is. */
export const WouldDo = z.object({
  what: z.enum(['tool', 'message', 'memory', 'notes']),
  /** What it is, for people: the tool's title ("Write a file"), "Send a message", "Add to the memory". */
  title: z.string(),
  /** What it acts on, in words ("notes.md (120 characters)", "to everyone: Hello"); '' when nothing plain. */
  target: z.string(),
  tool: z.string().nullable(),
  /** For a held-back call: the id of its tool_call among the rehearsal's events. */
  call_id: z.string().optional(),
  args: z.unknown(),
});
export type WouldDo = z.infer<typeof WouldDo>;

const sources = { source: z.literal('disk').optional(), file: z.string().optional() };

export const KnownTimelineEvent = z.discriminatedUnion('kind', [
  eventOf('tick_started', {
    agents: z.int(),
    invalid_agents: z.array(z.looseObject({ folder: z.string(), problems: z.array(Problem) })),
  }),
  eventOf('tick_completed', {
    turns: z.array(z.looseObject({ agent: z.string(), status: TurnOutcome, reason: z.string().optional() })),
    /** The pause between ticks of the run that ran it; absent for a tick run on its own (a step). */
    interval_ms: z.number().optional(),
    /** How long the tick's turns waited for their model servers (room at the server, retries it asked for). */
    server_wait: z
      .object({ turns: z.int().nonnegative(), total_ms: z.number(), longest_ms: z.number() })
      .optional(),
    /** Calls at once each model server allowed at the tick's end; `learned` when it adapts. */
    server_limits: z
      .array(z.object({ server: z.string(), limit: z.int().positive(), learned: z.boolean() }))
      .optional(),
  }),
  eventOf('turn_started', {
    inbox: z.looseObject({
      fresh: z.array(z.looseObject({ seq: z.int(), id: z.string(), from: z.string() })),
      earlier: z.int(),
      more_waiting: z.boolean(),
    }),
  }),
  eventOf('turn_completed', { status: TurnStatus, spent: z.number(), duration_ms: z.number() }),
  eventOf('model_call', {
    round: z.int(),
    model: z.string(),
    provider: z.string(),
    prompt: z.array(z.looseObject({ role: z.string(), content: z.string() })),
    tools: z.array(z.string()).optional(),
    /** `none` on a turn's last round: the tools are there, calling them is not. */
    tool_choice: z.literal('none').optional(),
    response: z
      .looseObject({
        text: z.string(),
        toolCalls: z.array(z.unknown()),
        finishReason: z.string().nullable(),
        /** The finish reason in the same words for every API (models' StopReason). */
        stop: z.string().optional(),
        /** Only in older events: the provider's whole body, which held the answer a second time. */
        raw: z.unknown().optional(),
      })
      .optional(),
    /** What the provider read past in the answer (an Ollama line that is not JSON), in plain words. */
    warnings: z.array(z.string()).optional(),
    usage: TokenUsage.nullish(),
    latency_ms: z.number(),
    cost: z.number().optional(),
    /**
     * Set when an MCP server asked the question during one of the agent's tool calls (sampling): which
     * server, during which call, and what it asked for that was not done (context, model hints).
     */
    asked_by: z
      .looseObject({
        server: z.string(),
        call_id: z.string().nullable(),
        tool: z.string(),
        include_context: z.string().optional(),
        model_preferences: z.unknown().optional(),
      })
      .optional(),
    /** Set when the call failed; the provider's own words are in `message`. */
    error: z
      .looseObject({
        error_kind: z.string(),
        status: z.number().nullable(),
        attempts: z.number(),
        message: z.string(),
        /** What failed, typed where it was born; absent in events older than typed failures. */
        failure: Failure.optional(),
      })
      .optional(),
  }),
  eventOf('tool_call', {
    round: z.int().optional(),
    call_id: z.string().optional(),
    tool: z.string(),
    args: z.unknown(),
  }),
  /**
   * A call that may change things is about to run. Written to the timeline on its own, before the call
   * runs (the turn's other events wait for its commit), so a turn run again after the app stopped knows
   * the call was started; `args` are redacted as tool_call's are.
   */
  eventOf('tool_intent', {
    round: z.int().optional(),
    call_id: z.string().optional(),
    tool: z.string(),
    args: z.unknown(),
  }),
  eventOf('tool_result', {
    round: z.int().optional(),
    call_id: z.string().optional(),
    tool: z.string(),
    result: ToolResult,
    duration_ms: z.number(),
    /**
     * The call was not run: an earlier attempt at this turn started it (the call id of its tool_intent)
     * before the app stopped, and whether it finished is not known. `result` says so to the model.
     */
    started_before_stop: z.string().optional(),
  }),
  eventOf('message', {
    ...sources,
    entry: MessageEntry,
    extra: z.record(z.string(), z.unknown()).optional(),
  }),
  /** The model declined to answer; `text` is its explanation as it gave it. */
  eventOf('model_refused', { round: z.int().positive(), model: z.string(), text: z.string() }),
  eventOf('message_refused', {
    reason: z.string(),
    refused: z.array(z.string()),
    allowed: z.array(z.string()),
    entry: z.unknown(),
  }),
  /**
   * An append records the items it added and a merge the objects it merged in; a set records the new value.
   * Events written before this (and by LeMMing) hold the whole value after any op in `value`.
   */
  eventOf('memory_update', {
    key: z.string(),
    op: z.string(),
    value: z.unknown().optional(),
    appended: z.array(z.unknown()).optional(),
    merged: z.array(z.unknown()).optional(),
    /** Set when the person changed the memory in the app rather than the agent in a turn. */
    by: z.literal('human').optional(),
  }),
  eventOf('memory_snapshot', { ...sources, record: z.unknown() }),
  eventOf('credit', {
    entry: CreditEntryKind,
    amount: z.number(),
    reason: z.string(),
    /** For an edit of credits.json made outside the engine: which field, and its values before and after. */
    field: z.string().optional(),
    old: z.number().nullable().optional(),
    new: z.number().nullable().optional(),
  }),
  /** A budget's spending reached 80 % of its limit (or credits.json's soft_cap was reached): told once a period. */
  eventOf('budget_warning', {
    scope: BudgetScope,
    budget: BudgetName,
    period: z.string(),
    limit: z.number(),
    spent: z.number(),
    message: z.string(),
  }),
  /** A model call would have crossed a budget: it was not made, and its agents pause until resumed or the period ends. */
  eventOf('budget_paused', {
    scope: BudgetScope,
    budget: BudgetName,
    period: z.string(),
    limit: z.number(),
    spent: z.number(),
    /** The most the call not made could have cost. */
    needed: z.number(),
    message: z.string(),
  }),
  /** The person resumed a paused agent: the budget's limit for the rest of the period grows by one budget. */
  eventOf('budget_resumed', {
    scope: BudgetScope,
    budget: BudgetName,
    period: z.string(),
    limit: z.number(),
    message: z.string(),
  }),
  eventOf('outbox_pruned', { files: z.array(z.string()), reason: z.string() }),
  eventOf('notes', { text: z.string() }),
  /** A due turn not taken: `reason` is a SkipReason (older timelines have other words: skipReasonWords). */
  eventOf('skip', { reason: z.string(), message: z.string() }),
  /** Ticks `from`..`to` did not run (never replayed); `catching_up` take one turn at the next tick. */
  eventOf('ticks_missed', {
    from: z.int(),
    to: z.int(),
    cause: MissedCause,
    message: z.string(),
    catching_up: z.array(z.string()),
  }),
  /** A run stopped running ticks by the person's or its own doing (not by the app closing); `reason` is a RunEndReason or `paused`. */
  eventOf('run_ended', { reason: z.string(), message: z.string() }),
  eventOf('error', {
    reason: z.string(),
    message: z.string(),
    /** What failed, typed where it was born; absent in events older than typed failures (older-failure.ts reads those). */
    failure: Failure.optional(),
  }),
  eventOf('warning', {
    code: z.string(),
    message: z.string().optional(),
    file: z.string().optional(),
    line: z.int().optional(),
    column: z.int().optional(),
    text: z.string().optional(),
    snippet: z.string().optional(),
    /** For an invalid resume: every problem it has. */
    problems: z.array(Problem).optional(),
    /** For a run lock taken over: the run that held it and ended without releasing it. */
    holder: z
      .looseObject({ program: z.string(), pid: z.number(), host: z.string(), since: z.string() })
      .optional(),
  }),
  /** A tool call waits for the person's approval ("ask me first"); `args` are redacted. */
  eventOf('approval_requested', {
    request_id: z.string(),
    tool: z.string(),
    args: z.unknown(),
    reason: z.string(),
    /** For an MCP tool that changed since the person chose how it runs: what changed. */
    changes: z.array(z.string()).optional(),
    /** A form an MCP server asked the person to fill in during the call. */
    form: FormRequest.optional(),
    expires_at: z.string(),
  }),
  /**
   * A turn parked on an approval request: the tick went on without it, and it resumes where it stopped
   * (its events so far are committed with the rest of it) once the person answers or the request times out.
   */
  eventOf('turn_parked', { request_id: z.string(), tool: z.string(), message: z.string() }),
  /** A parked turn was given its answer and goes on (committed with this turn's id and tick). */
  eventOf('turn_resumed', {
    request_id: z.string(),
    answer: ApprovalAnswerKind,
    source: ApprovalSource,
    parked_at_tick: z.int(),
  }),
  /** The answer to an approval request: who gave it, and for a denial the reason the model is told. */
  eventOf('approval_answered', {
    request_id: z.string(),
    tool: z.string(),
    answer: ApprovalAnswerKind,
    source: ApprovalSource,
    reason: z.string().optional(),
    /** For a form: the values sent (secret values replaced by their names), or that it was closed unanswered. */
    values: FormValues.optional(),
    dismissed: z.boolean().optional(),
    waited_ms: z.number(),
  }),
  /**
   * A rehearsal of one agent's turn (engine/run/rehearsal.ts), the one thing it commits: what the turn
   * would have done (`would_do`, arguments redacted), the turn's own events as it played (model calls,
   * reads and their results, what was held back) and what it would have cost, which was not charged.
   * It has no tick of its own (the counter did not move): `as_tick` is the tick it was rehearsed as.
   */
  eventOf('rehearsal', {
    as_tick: z.int(),
    status: TurnStatus,
    would_do: z.array(WouldDo),
    /** Credits the turn would have been charged (model calls, the turn, tools that ran); not charged. */
    would_cost: z.number(),
    /** What the cost was, in words: what the model calls cost, and that nothing was charged. */
    cost_words: z.string(),
    events: z.array(z.looseObject({ kind: z.string() })),
  }),
  eventOf('lemming_log', { ...sources, line: z.int(), record: z.record(z.string(), z.unknown()) }),
  eventOf('activity', { ...sources, line: z.int(), text: z.string(), notes: z.string().optional() }),
]);
/** An event of a kind the engine writes, as it writes it. */
export type KnownTimelineEvent = z.infer<typeof KnownTimelineEvent>;
export type KnownEventKind = KnownTimelineEvent['kind'];

/** Every kind the engine writes. */
export const KNOWN_EVENT_KINDS = KnownTimelineEvent.options.map(
  (option) => option.shape.kind.value,
) as readonly KnownEventKind[];

/** Any other event: only `kind` is required; everything it holds is kept. */
export const OtherTimelineEvent = z.looseObject({ ...EventBase, kind: z.string().min(1) });
export type OtherTimelineEvent = z.infer<typeof OtherTimelineEvent>;

/**
 * What the timeline stores: an event of a known kind, or any other object with a kind. A known kind
 * whose fields do not match its schema (an older engine's, an edited file) is kept as an other event.
 */
export const TimelineEventInput = z.union([KnownTimelineEvent, OtherTimelineEvent]);
export type TimelineEventInput = z.infer<typeof TimelineEventInput>;

/** The fields an engine producer gives an event; the turn or tick adds the indexed ones. */
export type KnownEventFields = KnownTimelineEvent extends infer E
  ? E extends KnownTimelineEvent
    ? Omit<E, keyof typeof EventBase>
    : never
  : never;

/**
 * An event as a known kind when it is one (typed, for a switch on `kind`), else null. Never throws:
 * readers fall back to the fields every event may have.
 */
export function knownEvent(value: unknown): KnownTimelineEvent | null {
  const parsed = KnownTimelineEvent.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * What a memory_update event says changed, for both shapes: an append's items or a merge's objects,
 * or the value it holds (the new value of a set, or in an older event the whole value after any op).
 */
export type MemoryChangeShown =
  | { shows: 'appended' | 'merged'; values: unknown[] }
  | { shows: 'value'; values: [unknown] }
  | { shows: 'nothing'; values: [] };

export function memoryChangeShown(
  event: Extract<KnownTimelineEvent, { kind: 'memory_update' }>,
): MemoryChangeShown {
  if (event.appended) return { shows: 'appended', values: event.appended };
  if (event.merged) return { shows: 'merged', values: event.merged };
  if (event.value !== undefined) return { shows: 'value', values: [event.value] };
  return { shows: 'nothing', values: [] };
}
