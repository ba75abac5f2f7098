import type { Result } from '../api/result';
import { parseJsonText } from '../files/json-text';
import { messageTimelineKind } from '../api/message-kind';
import { OtherTimelineEvent, TimelineEventInput } from '../api/timeline-events';

/** An event ready to be inserted: its indexed columns and its exact JSON text. */
export interface EventRecord {
  kind: string;
  agent: string | null;
  tick: number | null;
  runId: string | null;
  time: string | null;
  json: string;
}

/** A line's record, or why the line is not an event. */
export type LineRecordResult = Result<EventRecord, string>;

export class InvalidTimelineEventError extends Error {
  override name = 'InvalidTimelineEventError';
}

/** The record of an event the engine appends; its JSON text is JSON.stringify of the event. */
export function recordFromEvent(event: TimelineEventInput): EventRecord {
  const problem = schemaProblem(event);
  if (problem) throw new InvalidTimelineEventError(`Timeline event rejected: ${problem}.`);
  return recordOf(event, serialize(event));
}

/** The record of one JSON Lines line, keeping the line's text exactly; never throws. */
export function recordFromLine(line: string): LineRecordResult {
  const parsed = parseJsonText(line);
  if (!parsed.ok) return { ok: false, error: `${parsed.error.message} (column ${parsed.error.column})` };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'an event must be a JSON object' };
  }
  const problem = schemaProblem(value);
  if (problem) return { ok: false, error: problem };
  return { ok: true, value: recordOf(value as TimelineEventInput, line) };
}

function serialize(event: TimelineEventInput): string {
  try {
    return JSON.stringify(event);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidTimelineEventError(`Timeline event of kind "${event.kind}" is not JSON: ${reason}.`);
  }
}

/**
 * True only for values TimelineEventInput accepts, checked without zod: nearly every engine event is
 * one, and parsing each would cost a tenth of an append. Anything else goes to the schema, which
 * stays the rule and words the error.
 */
export function isClearlyValidEvent(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const event = value as Record<string, unknown>;
  return (
    typeof event.kind === 'string' &&
    event.kind.length > 0 &&
    isOptionalString(event.time) &&
    isOptionalString(event.run) &&
    isOptionalString(event.agent) &&
    isOptionalString(event.turn) &&
    (event.tick == null || Number.isSafeInteger(event.tick))
  );
}

function isOptionalString(value: unknown): boolean {
  return value == null || typeof value === 'string';
}

function schemaProblem(value: unknown): string | null {
  if (isClearlyValidEvent(value) || TimelineEventInput.safeParse(value).success) return null;
  // The union fails only where its catch-all does, and the catch-all's issues name the field.
  const result = OtherTimelineEvent.safeParse(value);
  return (result.error?.issues ?? [])
    .map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(event)'}: ${issue.message}`)
    .join('; ');
}

function recordOf(event: TimelineEventInput, json: string): EventRecord {
  return {
    kind: indexedKind(event),
    agent: event.agent ?? null,
    tick: event.tick ?? null,
    runId: event.run ?? null,
    time: event.time ?? null,
    json,
  };
}

/** The kind the event is indexed (shown, filtered) by: a message event by its outbox entry's own kind. */
export function indexedKind(event: TimelineEventInput): string {
  if (event.kind !== 'message') return event.kind;
  const entry = (event as { entry?: unknown }).entry;
  return entry !== null && typeof entry === 'object'
    ? messageTimelineKind((entry as { kind?: unknown }).kind)
    : 'message';
}
