import type Database from 'better-sqlite3';

/** How many ticks back the graph counts messages on its edges. */
export const TRAFFIC_WINDOW_TICKS = 5;
/** The newest outbox entries read at most, so the count costs the same however long the org has run. */
const MAX_MESSAGES_READ = 5000;

export interface EdgeTraffic {
  from: string;
  to: string;
  count: number;
}

/**
 * Messages per sender → reader over the last `windowTicks` ticks (ticks ≥ `fromTick`), read newest first
 * from the engine's message table until an older tick. A message without recipients (or to `*`) counts
 * for every agent in `agents` but its sender; one with recipients counts for each of them.
 */
export function messageTraffic(
  db: Database.Database,
  agents: readonly string[],
  fromTick: number,
): EdgeTraffic[] {
  const counts = new Map<string, EdgeTraffic>();
  const add = (from: string, to: string) => {
    if (from === to) return;
    const key = `${from}\u0000${to}`;
    const found = counts.get(key);
    if (found) found.count += 1;
    else counts.set(key, { from, to, count: 1 });
  };
  const rows = db
    .prepare('SELECT sender, tick, json FROM messages ORDER BY seq DESC LIMIT ?')
    .iterate(MAX_MESSAGES_READ) as Iterable<{ sender: string; tick: number | null; json: string }>;
  for (const row of rows) {
    if (row.tick === null || row.tick < fromTick) break;
    const recipients = recipientsOf(row.json);
    if (recipients === null || recipients.includes('*')) for (const agent of agents) add(row.sender, agent);
    else for (const recipient of recipients) add(row.sender, recipient);
  }
  return [...counts.values()];
}

function recipientsOf(json: string): string[] | null {
  try {
    const entry: unknown = JSON.parse(json);
    if (typeof entry !== 'object' || entry === null) return null;
    const recipients = (entry as { recipients?: unknown }).recipients;
    return Array.isArray(recipients) ? recipients.filter((name) => typeof name === 'string') : null;
  } catch {
    return null;
  }
}
