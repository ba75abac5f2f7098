import type Database from 'better-sqlite3';
import { fail, ok, type IpcResult } from '../api/result';
import type { z } from 'zod';
import type {
  AgentTurns,
  InspectedModelCall,
  InspectedToolCall,
  TickTurn,
  TickTurns,
  TurnDetail,
  TurnStep,
} from '../api/inspector-schemas';
import { knownEvent, memoryChangeShown, type KnownTimelineEvent } from '../api/timeline-events';
import type { TurnStatus } from '../api/run-schemas';
import type { TimelineEvent, TimelineQuery } from '../api/timeline-schemas';
import { payloadText, promptPart } from '../run/prompt';
import type { TimelineStore } from '../timeline/timeline-store';

/** Events one inspector answer reads at most; a turn has a few dozen, so this only bounds odd timelines. */
const MAX_TURN_EVENTS = 5000;
const PAGE = 1000;
/** Memory values and tool arguments longer than this are cut in the tree (the raw JSON has them whole). */
const MAX_VALUE_TEXT = 4000;

export interface ParsedEvent {
  row: TimelineEvent;
  fields: Record<string, unknown>;
  known: KnownTimelineEvent | null;
}

/**
 * Reads the events matching `query` oldest first, in keyset pages: every page walks the indexes the
 * timeline pages use (a tick's seq window, the agent-and-kind index), never the whole table.
 */
function readEvents(
  timeline: TimelineStore,
  query: TimelineQuery,
): { events: ParsedEvent[]; truncated: boolean } {
  const events: ParsedEvent[] = [];
  let cursor: number | null = null;
  for (;;) {
    const page = timeline.page({ ...query, direction: 'asc', cursor, limit: PAGE });
    for (const row of page.rows) events.push(parsed(row));
    if (page.nextCursor === null) return { events, truncated: false };
    if (events.length >= MAX_TURN_EVENTS) return { events, truncated: true };
    cursor = page.nextCursor;
  }
}

export function parsed(row: TimelineEvent): ParsedEvent {
  let value: unknown = null;
  try {
    value = JSON.parse(row.json);
  } catch {
    // Stored text is always JSON; a damaged row is still listed with its raw text.
  }
  const fields = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return { row, fields, known: knownEvent(value) };
}

/**
 * One agent's turn at one tick as a tree: the prompt as chat messages, each model call with its
 * latency, tokens and cost, each tool call with its result, memory updates, messages sent, credits
 * charged, and every event behind it. Reads only; works on a timeline opened read-only.
 */
export function turnDetail(timeline: TimelineStore, agent: string, tick: number): IpcResult<TurnDetail> {
  const { events: all, truncated } = readEvents(timeline, { agents: [agent], tickFrom: tick, tickTo: tick });
  if (all.length === 0) return fail('not_found', `${agent} has no events at tick ${tick} in the timeline.`);
  // A tick may hold events of another run's turn (an imported timeline): the newest turn is the one shown.
  const turnId =
    [...all].reverse().find((event) => event.known?.kind === 'turn_started')?.known?.turn ?? null;
  const events =
    turnId === null
      ? all
      : all.filter((event) => {
          const turn = event.fields.turn;
          return turn === turnId || turn === undefined || turn === null;
        });

  const started = events.find((event) => event.known?.kind === 'turn_started');
  const completed = events.find((event) => event.known?.kind === 'turn_completed')?.known;

  return ok({
    agent,
    tick,
    turnId,
    runId: (started ?? events[0]!).row.runId,
    startedAt: (started ?? events[0]!).row.time,
    status: completed?.kind === 'turn_completed' ? statusNow(timeline, tick, agent, completed.status) : null,
    durationMs: completed?.kind === 'turn_completed' ? completed.duration_ms : null,
    spent: completed?.kind === 'turn_completed' ? completed.spent : null,
    ...playedTurn(events),
    events: events.map((event) => ({
      seq: event.row.seq,
      kind: event.row.kind,
      known: event.known !== null,
      bytes: event.row.json.length,
    })),
    truncated,
  });
}

/** What the turn's events show of it: the prompt, who its news came from, its steps and its totals. */
export function playedTurn(
  events: ParsedEvent[],
): Pick<TurnDetail, 'prompt' | 'inboxFrom' | 'steps' | 'totals'> {
  const started = events.find((event) => event.known?.kind === 'turn_started')?.known;
  const firstCall = events.find((event) => event.known?.kind === 'model_call')?.known;
  const steps = stepsOf(events);
  const calls = steps.flatMap((step) => (step.type === 'model_call' ? [step.call] : []));
  const credits = steps.reduce((sum, step) => (step.type === 'credit' ? sum - step.amount : sum), 0);
  return {
    prompt:
      firstCall?.kind === 'model_call'
        ? firstCall.prompt.map((message) => ({
            role: message.role,
            part: promptPart(message),
            content: message.content,
          }))
        : [],
    inboxFrom: started?.kind === 'turn_started' ? started.inbox.fresh.map((message) => message.from) : [],
    steps,
    totals: {
      modelCalls: calls.length,
      inputTokens: sum(calls.map((call) => call.inputTokens)),
      outputTokens: sum(calls.map((call) => call.outputTokens)),
      modelCost: round(sum(calls.map((call) => call.cost))),
      credits: round(credits),
    },
  };
}

/**
 * The turn's steps in order; a tool result joins its call (by call id, else the first open call of that
 * tool). A tool_intent is its call's, and shown only when the call went no further: the app stopped
 * during it, and the turn never ran again or, run again, was not asked for it.
 */
function stepsOf(events: ParsedEvent[]): TurnStep[] {
  const steps: TurnStep[] = [];
  const openCalls: { call: InspectedToolCall; callId: string | null }[] = [];
  const followedUp = new Set<string>();
  for (const { known } of events) {
    if (known?.kind === 'tool_call' && known.call_id) followedUp.add(known.call_id);
    if (known?.kind === 'tool_result' && known.started_before_stop) followedUp.add(known.started_before_stop);
  }
  for (const event of events) {
    const { known, row } = event;
    switch (known?.kind) {
      case 'turn_started':
      case 'turn_completed':
        break;
      case 'tool_intent':
        if (known.call_id && followedUp.has(known.call_id)) break;
        steps.push({
          type: 'tool_call',
          call: { ...unansweredCall(row.seq, known), startedBeforeStop: true },
        });
        break;
      case 'model_call':
        steps.push({ type: 'model_call', call: modelCall(row.seq, known) });
        break;
      case 'tool_call': {
        const call = unansweredCall(row.seq, known);
        openCalls.push({ call, callId: known.call_id ?? null });
        steps.push({ type: 'tool_call', call });
        break;
      }
      case 'tool_result': {
        const index = openCalls.findIndex(({ call, callId }) =>
          known.call_id
            ? callId === known.call_id
            : call.tool === known.tool && call.round === (known.round ?? null),
        );
        const call = index >= 0 ? openCalls.splice(index, 1)[0]!.call : null;
        const result = {
          resultSeq: row.seq,
          success: known.result.success,
          output: known.result.output,
          error: known.result.error,
          durationMs: known.duration_ms,
          startedBeforeStop: known.started_before_stop !== undefined,
          ...(known.result.attachments?.length ? { attachments: known.result.attachments } : {}),
          ...(known.result.structured !== undefined
            ? { structured: cut(JSON.stringify(known.result.structured, null, 2)) }
            : {}),
        };
        if (call) Object.assign(call, result);
        else
          steps.push({
            type: 'tool_call',
            call: { callSeq: row.seq, round: known.round ?? null, tool: known.tool, args: 'null', ...result },
          });
        break;
      }
      case 'memory_update':
        steps.push({
          type: 'memory_update',
          seq: row.seq,
          key: known.key,
          op: known.op,
          ...inspectedMemoryChange(known),
        });
        break;
      case 'message':
        steps.push({
          type: 'message',
          seq: row.seq,
          to: known.entry.recipients ?? [],
          messageKind: known.entry.kind ?? 'message',
          text: cut(payloadText(known.entry.payload)),
        });
        break;
      case 'credit':
        steps.push({ type: 'credit', seq: row.seq, amount: known.amount, reason: known.reason });
        break;
      default:
        steps.push({ type: 'other', seq: row.seq, kind: row.kind, text: otherText(event) });
    }
  }
  return steps;
}

/** A call as its tool_call (or tool_intent) event says it, before any result joins it. */
function unansweredCall(
  seq: number,
  event: { round?: number | undefined; tool: string; args: unknown },
): InspectedToolCall {
  return {
    callSeq: seq,
    resultSeq: null,
    round: event.round ?? null,
    tool: event.tool,
    args: cut(JSON.stringify(event.args ?? null)),
    success: null,
    output: null,
    error: null,
    durationMs: null,
    startedBeforeStop: false,
  };
}

function modelCall(
  seq: number,
  event: Extract<KnownTimelineEvent, { kind: 'model_call' }>,
): InspectedModelCall {
  return {
    seq,
    round: event.round,
    model: event.model,
    provider: event.provider,
    latencyMs: event.latency_ms,
    inputTokens: event.usage?.inputTokens ?? null,
    outputTokens: event.usage?.outputTokens ?? null,
    cachedInputTokens: event.usage?.cachedInputTokens ?? null,
    cost: event.cost ?? null,
    stop: event.response?.stop ?? event.response?.finishReason ?? null,
    answer: event.response?.text ?? null,
    error: event.error?.message ?? null,
    ...(event.asked_by
      ? {
          askedBy: {
            server: event.asked_by.server,
            callId: event.asked_by.call_id,
            tool: event.asked_by.tool,
          },
        }
      : {}),
  };
}

/** A line for a step the tree has no special shape for: its message, text or reason when it has one. */
function otherText(event: ParsedEvent): string {
  const { fields } = event;
  for (const key of ['message', 'text', 'reason', 'code'] as const) {
    if (typeof fields[key] === 'string' && fields[key] !== '') return fields[key];
  }
  return '';
}

function inspectedMemoryChange(event: Extract<KnownTimelineEvent, { kind: 'memory_update' }>) {
  const change = memoryChangeShown(event);
  if (change.shows === 'nothing') return { shows: 'value' as const, value: null };
  return { shows: change.shows, value: cut(change.values.map((value) => JSON.stringify(value)).join('\n')) };
}

function cut(text: string): string {
  return text.length <= MAX_VALUE_TEXT ? text : `${text.slice(0, MAX_VALUE_TEXT)}…`;
}

function sum(values: (number | null)[]): number {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

/** Credits are kept in millionths: sums of their decimal forms are rounded back to that. */
function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Every turn of one tick, for the waterfall: when each started (after the first) and how long it took.
 * Reads only the turn_started and turn_completed events of the tick's seq window.
 */
export function tickTurns(timeline: TimelineStore, tick: number): TickTurns {
  const { events } = readEvents(timeline, {
    tickFrom: tick,
    tickTo: tick,
    kinds: ['turn_started', 'turn_completed'],
  });
  const turns = new Map<string, Omit<TickTurn, 'offsetMs'> & { startMs: number | null }>();
  for (const { known, row } of events) {
    if (!known || !known.agent) continue;
    const key = known.turn ?? known.agent;
    const turn = turns.get(key) ?? {
      agent: known.agent,
      startedAt: null,
      startMs: null,
      durationMs: null,
      status: null,
      spent: null,
    };
    if (known.kind === 'turn_started') {
      turn.startedAt = row.time;
      turn.startMs = row.time ? Date.parse(row.time) : null;
    } else if (known.kind === 'turn_completed') {
      turn.durationMs = known.duration_ms;
      turn.status = statusNow(timeline, tick, known.agent, known.status);
      turn.spent = known.spent;
    }
    turns.set(key, turn);
  }
  const starts = [...turns.values()].flatMap((turn) => (turn.startMs === null ? [] : [turn.startMs]));
  const first = starts.length > 0 ? Math.min(...starts) : 0;
  return {
    tick,
    turns: [...turns.values()]
      .map(({ startMs, ...turn }) => ({ ...turn, offsetMs: startMs === null ? 0 : startMs - first }))
      .sort((a, b) => a.offsetMs - b.offsetMs || a.agent.localeCompare(b.agent)),
  };
}

const RECENT_TURNS = 20;

const turnStatusQueries = new WeakMap<Database.Database, Database.Statement<[number, string], string>>();

/**
 * A turn's status as the engine holds it now: turn_completed is written in the turn's commit, and a turn
 * whose files could not be written after it is marked failed in the turns table (with an error event).
 * A turn the table does not hold (imported from another timeline) keeps its event's status.
 */
function statusNow(timeline: TimelineStore, tick: number, agent: string, recorded: TurnStatus): TurnStatus {
  if (recorded !== 'completed') return recorded;
  let query = turnStatusQueries.get(timeline.db);
  if (!query) {
    query = timeline.db
      .prepare<[number, string], string>('SELECT status FROM turns WHERE tick = ? AND agent = ?')
      .pluck();
    turnStatusQueries.set(timeline.db, query);
  }
  const now = query.get(tick, agent);
  return now === 'failed' ? 'failed' : recorded;
}

/** An agent's newest turns, newest first: one keyset page of its turn_completed events. */
export function agentTurns(timeline: TimelineStore, agent: string): z.output<typeof AgentTurns> {
  const page = timeline.page({ agents: [agent], kinds: ['turn_completed'], limit: RECENT_TURNS });
  return {
    agent,
    turns: page.rows.flatMap((row) => {
      const known = parsed(row).known;
      return known?.kind === 'turn_completed' && row.tick !== null
        ? [
            {
              tick: row.tick,
              status: statusNow(timeline, row.tick, agent, known.status),
              durationMs: known.duration_ms,
            },
          ]
        : [];
    }),
  };
}
