import { fromMicros } from '../credits/credit-amount';
import type { KnownTimelineEvent, WouldDo } from '../api/timeline-events';
import { payloadText } from './prompt';
import type { StagedTurn } from './agent-turn';
import type { HeldCall, RehearsalHold } from '../tools/rehearsal-hold';
import type { McpServerRecord } from '../api/approval-schemas';
import type { ToolResult } from '../tools/tool-result';

/** The one record a rehearsal commits. */
export type RehearsalRecord = Extract<KnownTimelineEvent, { kind: 'rehearsal' }>;

const MAX_TARGET_CHARS = 120;

const MEMORY_TITLES: Record<string, string> = {
  set: 'Save the memory',
  append: 'Add to the memory',
  merge: 'Merge into the memory',
  delete: 'Delete the memory',
};

/**
 * One rehearsal: its toolbox setting, which keeps every call it held back, and the record it commits.
 * A rehearsal is an agent's turn played with every side effect held back (docs/ARCHITECTURE.md,
 * "Rehearsal"): its staged outcome (messages, memory, files, charges, cursor) is never committed.
 */
export class Rehearsal {
  private readonly heldCalls: { call: HeldCall; told: ToolResult }[] = [];
  readonly hold: RehearsalHold;

  constructor(mcpRecord: (server: string) => McpServerRecord | undefined) {
    this.hold = { mcpRecord, held: (call, told) => this.heldCalls.push({ call, told }) };
  }

  /** The record of the rehearsed turn: everything it would have done, in the order it would have. */
  record(turn: StagedTurn, asTick: number): Omit<RehearsalRecord, 'time'> {
    const held = [...this.heldCalls];
    const wouldDo: WouldDo[] = [];
    for (const event of turn.events) {
      const action = wouldDoOf(event, held, turn.status === 'completed');
      if (action) wouldDo.push(action);
    }
    const wouldCost = turn.postings.reduce((sum, posting) => sum - posting.amountMicro, 0);
    return {
      kind: 'rehearsal',
      agent: turn.agent,
      as_tick: asTick,
      status: turn.status,
      would_do: wouldDo,
      would_cost: fromMicros(wouldCost),
      cost_words: costWords(turn.events, wouldCost),
      events: turn.events,
    };
  }
}

/**
 * What an event of the staged turn would have done: a held-back call (its tool_result follows the call
 * it answers, in order), and, had the turn completed, each message it would have sent, memory change it
 * would have made and note it would have logged.
 */
function wouldDoOf(
  event: KnownTimelineEvent,
  held: { call: HeldCall; told: ToolResult }[],
  committed: boolean,
): WouldDo | null {
  switch (event.kind) {
    case 'tool_result': {
      const next = held[0];
      if (!next || next.call.tool !== event.tool || next.told.output !== event.result.output) return null;
      const { call } = held.shift()!;
      return {
        what: 'tool',
        title: call.title,
        target: call.target,
        tool: call.tool,
        ...(event.call_id ? { call_id: event.call_id } : {}),
        args: call.args,
      };
    }
    case 'message': {
      if (!committed) return null;
      const to = event.entry.recipients?.length ? event.entry.recipients.join(', ') : 'everyone';
      return {
        what: 'message',
        title: 'Send a message',
        target: `to ${to}: ${shortened(payloadText(event.entry.payload))}`,
        tool: null,
        args: event.entry.payload ?? null,
      };
    }
    case 'memory_update':
      if (!committed) return null;
      return {
        what: 'memory',
        title: MEMORY_TITLES[event.op] ?? `Change the memory (${event.op})`,
        target: `'${event.key}'`,
        tool: null,
        args: event.appended ?? event.merged ?? event.value ?? null,
      };
    case 'notes':
      if (!committed) return null;
      return {
        what: 'notes',
        title: 'Note in its activity log',
        target: `“${shortened(event.text)}”`,
        tool: null,
        args: event.text,
      };
    default:
      return null;
  }
}

/** What the rehearsal's model calls cost, in words, and that nothing was charged. */
function costWords(events: readonly KnownTimelineEvent[], wouldCostMicro: number): string {
  const calls = events.filter((event) => event.kind === 'model_call' && !event.error);
  const tokensIn = calls.reduce(
    (sum, call) => sum + (call.kind === 'model_call' ? (call.usage?.inputTokens ?? 0) : 0),
    0,
  );
  const tokensOut = calls.reduce(
    (sum, call) => sum + (call.kind === 'model_call' ? (call.usage?.outputTokens ?? 0) : 0),
    0,
  );
  const modelCost = calls.reduce((sum, call) => sum + (call.kind === 'model_call' ? (call.cost ?? 0) : 0), 0);
  const used =
    calls.length === 0
      ? 'The rehearsal called no model.'
      : `The rehearsal made ${calls.length} model call${calls.length === 1 ? '' : 's'} (${tokensIn} tokens in, ${tokensOut} out), costing ${round(modelCost)} credits.`;
  return `${used} As a real turn it would have been charged ${fromMicros(wouldCostMicro)} credits; a rehearsal is not charged, so the balance did not change.`;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function shortened(text: string): string {
  const line = text.split('\n', 1)[0]!;
  return line.length > MAX_TARGET_CHARS || line !== text ? `${line.slice(0, MAX_TARGET_CHARS)}…` : line;
}
