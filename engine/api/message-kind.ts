/**
 * The timeline kind an outbox entry is filed under. LeMMing accepts any entry kind ("report",
 * "request", "status_report"…); the timeline files an entry of kind "message" as `message` and any
 * other as `message:<its kind>`, so it is shown and filtered by its own kind, and an agent cannot
 * write an entry that passes for one of the engine's own events (an `error`, a `tick_started`).
 * The event's JSON keeps `kind: "message"` and the entry exactly as written.
 */
export const MESSAGE_KIND_PREFIX = 'message:';

/** The timeline kind of a message event whose outbox entry has `entryKind`. */
export function messageTimelineKind(entryKind: unknown): string {
  return typeof entryKind === 'string' && entryKind !== '' && entryKind !== 'message'
    ? `${MESSAGE_KIND_PREFIX}${entryKind}`
    : 'message';
}

/** The entry kind of a timeline kind filed by messageTimelineKind, or null for any other kind. */
export function entryKindOf(timelineKind: string): string | null {
  return timelineKind.startsWith(MESSAGE_KIND_PREFIX) ? timelineKind.slice(MESSAGE_KIND_PREFIX.length) : null;
}
