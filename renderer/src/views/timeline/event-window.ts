import type { TimelinePage, TimelineRowSummary } from '../../../../engine/api';

/** Rows the renderer keeps at most, whatever the timeline holds (desktop-app.md §4.2: ≤ ~5k). */
export const MAX_WINDOW_ROWS = 1500;
export const PAGE_ROWS = 200;

/**
 * The slice of the filtered timeline the renderer holds: rows newest first, where the first of them
 * sits in the whole result (`offset`: how many matching events are newer), a keyset cursor to read
 * older rows from, and whether the newest row is the newest matching event. The list is as long as
 * the whole result; rows outside the window are placeholders until a page brings them.
 */
export interface EventWindow {
  rows: TimelineRowSummary[];
  offset: number;
  olderCursor: number | null;
  atNewest: boolean;
}

export const EMPTY_WINDOW: EventWindow = { rows: [], offset: 0, olderCursor: null, atNewest: true };

/** The window after the newest page (a `desc` page read with no cursor). */
export function windowFromNewest(page: TimelinePage): EventWindow {
  return { rows: page.rows, offset: 0, olderCursor: page.nextCursor, atNewest: true };
}

/** The window of a page read at a position (a `desc` page with `position` and `withTotal`). */
export function windowAt(page: TimelinePage): EventWindow {
  const offset = page.position ?? 0;
  return { rows: page.rows, offset, olderCursor: page.nextCursor, atNewest: offset === 0 };
}

/** Adds an older (`desc`) page below, dropping the newest rows when the window grows too big. */
export function withOlder(window: EventWindow, page: TimelinePage, max = MAX_WINDOW_ROWS): EventWindow {
  const rows = [...window.rows, ...page.rows];
  const dropped = Math.max(0, rows.length - max);
  return {
    rows: rows.slice(dropped),
    offset: window.offset + dropped,
    olderCursor: page.nextCursor,
    atNewest: window.atNewest && dropped === 0,
  };
}

/**
 * Adds a newer (`asc`) page above, dropping the oldest rows when the window grows too big. The rows
 * it adds were the ones just above the window, so the window starts that many rows higher.
 */
export function withNewer(window: EventWindow, page: TimelinePage, max = MAX_WINDOW_ROWS): EventWindow {
  const known = window.rows[0]?.seq ?? 0;
  const newer = page.rows.filter((row) => row.seq > known).reverse();
  const rows = [...newer, ...window.rows];
  const kept = rows.slice(0, max);
  const trimmed = kept.length < rows.length;
  return {
    rows: kept,
    offset: window.offset - newer.length,
    olderCursor: trimmed ? (kept.at(-1)?.seq ?? null) : window.olderCursor,
    atNewest: page.nextCursor === null,
  };
}

/**
 * The window around one event (a jump to a tick): `older` is a `desc` page starting at the event
 * (read `withTotal`, so it says where the event is), `newer` an `asc` page after it.
 */
export function windowAround(older: TimelinePage, newer: TimelinePage): EventWindow {
  return {
    rows: [...[...newer.rows].reverse(), ...older.rows],
    offset: (older.position ?? 0) - newer.rows.length,
    olderCursor: older.nextCursor,
    atNewest: newer.nextCursor === null,
  };
}

/** Whether the window holds (or borders, within `margin` rows) any of the rows `first`..`last`. */
export function windowReaches(window: EventWindow, first: number, last: number, margin: number): boolean {
  if (window.rows.length === 0) return false;
  return last >= window.offset - margin && first <= window.offset + window.rows.length - 1 + margin;
}
