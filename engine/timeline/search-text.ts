/** Most characters of one event that go into the search index; the event itself is kept whole. */
export const MAX_SEARCH_TEXT_CHARS = 8192;

/**
 * Top-level keys whose values are not searched: every event carries them, they would bloat the
 * index, and the timeline filters them with their own columns.
 */
const UNSEARCHED_TOP_LEVEL_KEYS = new Set(['time', 'run', 'turn']);

/** The string values of an event (never its keys), in document order, capped for the index. */
export function searchTextOf(event: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  let remaining = MAX_SEARCH_TEXT_CHARS;
  // An explicit stack instead of recursion: an imported line may nest deeper than the call stack.
  const pending: unknown[] = [];
  for (const key of Object.keys(event).reverse()) {
    if (!UNSEARCHED_TOP_LEVEL_KEYS.has(key)) pending.push(event[key]);
  }
  while (pending.length > 0 && remaining > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      const piece = value.length > remaining ? value.slice(0, remaining) : value;
      parts.push(piece);
      remaining -= piece.length + 1;
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) pending.push(value[index]);
    } else if (value !== null && typeof value === 'object') {
      const values = Object.values(value);
      for (let index = values.length - 1; index >= 0; index--) pending.push(values[index]);
    }
  }
  return parts.join('\n');
}

/**
 * The search text of an event's stored JSON text, or '' when the text is not a JSON object: a
 * damaged row is left out of the index rather than stopping the indexing of the rows after it.
 */
export function searchTextOfJson(json: string): string {
  let event: unknown;
  try {
    event = JSON.parse(json);
  } catch {
    return '';
  }
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return '';
  return searchTextOf(event as Record<string, unknown>);
}
