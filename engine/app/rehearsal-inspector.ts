import { fail, ok, type IpcResult } from '../api/result';
import type { RehearsalDetail } from '../api/rehearsal-schemas';
import { knownEvent } from '../api/timeline-events';
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
    steps: played.steps.filter((step) => step.type !== 'credit'),
    events: [{ seq, kind: row.kind, known: true, bytes: row.json.length }],
    truncated: false,
    wouldDo: rehearsal.would_do,
    costWords: rehearsal.cost_words,
  });
}
