import { fail, ok, type IpcResult } from '../api/result';
import type { TurnStep } from '../api/inspector-schemas';
import type { RehearsalDetail } from '../api/rehearsal-schemas';
import { knownEvent, type WouldDo } from '../api/timeline-events';
import type { TimelineStore } from '../timeline/timeline-store';
import { parsed, playedTurn, type ParsedEvent } from './turn-inspector';

/**
 * A rehearsal as the inspector shows it, from its record (the one event it stored): what the turn would
 * have done, and the turn as it played. Each step points at the record, where its event is kept.
 */
export function rehearsalDetail(timeline: TimelineStore, seq: number): IpcResult<RehearsalDetail> {
  const row = timeline.get(seq);
  const record = row ? parsed(row) : null;
  if (!row || record?.known?.kind !== 'rehearsal')
    return fail('not_found', `There is no rehearsal ${seq} in the timeline.`);
  const rehearsal = record.known;
  const events: ParsedEvent[] = rehearsal.events.map((event) => ({
    row: { ...row, kind: event.kind, json: JSON.stringify(event) },
    fields: event,
    known: knownEvent(event),
  }));
  const completed = events.find((event) => event.known?.kind === 'turn_completed')?.known;
  const played = playedTurn(events);
  return ok({
    seq,
    agent: rehearsal.agent ?? '',
    tick: rehearsal.as_tick,
    turnId: rehearsal.turn ?? null,
    runId: row.runId,
    startedAt: row.time,
    status: rehearsal.status,
    durationMs: completed?.kind === 'turn_completed' ? completed.duration_ms : null,
    spent: 0,
    ...played,
    // Nothing was charged: what would have been is in the totals and the cost in words.
    steps: markHeldBack(played.steps, events, rehearsal.would_do).filter((step) => step.type !== 'credit'),
    events: [{ seq, kind: row.kind, known: true, bytes: row.json.length }],
    truncated: false,
    wouldDo: rehearsal.would_do,
    costWords: rehearsal.cost_words,
  });
}

/** Marks the tool calls that were held back: the steps of the tool_call events whose ids the record lists. */
function markHeldBack(steps: TurnStep[], events: ParsedEvent[], wouldDo: readonly WouldDo[]): TurnStep[] {
  const held = new Set(wouldDo.flatMap((action) => (action.call_id ? [action.call_id] : [])));
  // Each tool_call event is one step, in order (a rehearsal writes no tool_intent).
  const callIds = events.flatMap((event) => (event.known?.kind === 'tool_call' ? [event.known.call_id] : []));
  let call = 0;
  return steps.map((step) => {
    if (step.type !== 'tool_call') return step;
    const id = callIds[call++];
    return id !== undefined && held.has(id) ? { ...step, call: { ...step.call, heldBack: true } } : step;
  });
}
