import type { Migration } from './migrate';

/**
 * Outbox entries filed by their own kind, and the count of events per agent and kind.
 *
 * A message event's indexed kind becomes `message:<entry kind>` when its outbox entry's kind is not
 * "message" (see messageTimelineKind), so the rows already written are filed the same way; their JSON
 * is not touched. `event_counts` is kept by every append, so the size of an agent/kind filter's
 * result (what the Timeline's scrollbar spans) is a sum over a few rows instead of a count of events.
 * A NULL agent is a row of its own; appends find it with `agent IS ?`.
 */
export const eventCountsMigration: Migration = {
  version: 6,
  name: 'outbox entry kinds, event counts',
  sql: `
    UPDATE events SET kind = 'message:' || json_extract(json, '$.entry.kind')
      WHERE kind = 'message'
        AND CASE WHEN json_valid(json) THEN json_type(json, '$.entry.kind') END = 'text'
        AND json_extract(json, '$.entry.kind') NOT IN ('', 'message');
    CREATE TABLE event_counts (
      agent TEXT,
      kind TEXT NOT NULL,
      events INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX event_counts_by_kind_agent ON event_counts (kind, agent);
    INSERT INTO event_counts (agent, kind, events)
      SELECT agent, kind, count(*) FROM events GROUP BY agent, kind;
  `,
};
