import type { TimelinePage, TimelineRowSummary } from '../../../../engine/api';

/** Rows the renderer keeps at most, whatever the timeline holds (desktop-app.md §4.2: ≤ ~5k). */
export const MAX_WINDOW_ROWS = 1500;
export const PAGE_ROWS = 200;

/**
 * The slice of the filtered timeline the list shows: rows newest first, a keyset cursor to read
 * older rows from, and whether the newest row is the newest matching event.
 */
export interface EventWindow {
  rows: TimelineRowSummary[];
  olderCursor: number | null;
  atNewest: boolean;
}

/** A window change, with how many rows entered (+) or left (−) above the first row the user saw. */
export interface WindowChange {
  window: EventWindow;
  shiftTop: number;
}

export const EMPTY_WINDOW: EventWindow = { rows: [], olderCursor: null, atNewest: true };

/** The window after the newest page (a `desc` page read with no cursor). */
export function windowFromNewest(page: TimelinePage): EventWindow {
  return { rows: page.rows, olderCursor: page.nextCursor, atNewest: true };
}

/** Adds an older (`desc`) page below, dropping the newest rows when the window grows too big. */
export function withOlder(window: EventWindow, page: TimelinePage, max = MAX_WINDOW_ROWS): WindowChange {
  const rows = [...window.rows, ...page.rows];
  const dropped = Math.max(0, rows.length - max);
  return {
    window: {
      rows: rows.slice(dropped),
      olderCursor: page.nextCursor,
      atNewest: window.atNewest && dropped === 0,
    },
    shiftTop: dropped === 0 ? 0 : -dropped,
  };
}

/** Adds a newer (`asc`) page above, dropping the oldest rows when the window grows too big. */
export function withNewer(window: EventWindow, page: TimelinePage, max = MAX_WINDOW_ROWS): WindowChange {
  const known = window.rows[0]?.seq ?? 0;
  const newer = page.rows.filter((row) => row.seq > known).reverse();
  const rows = [...newer, ...window.rows];
  const kept = rows.slice(0, max);
  const trimmed = kept.length < rows.length;
  return {
    window: {
      rows: kept,
      olderCursor: trimmed ? (kept.at(-1)?.seq ?? null) : window.olderCursor,
      atNewest: page.nextCursor === null,
    },
    shiftTop: newer.length,
  };
}

/**
 * The window around one event (a jump to a tick): `older` is a `desc` page starting at the event,
 * `newer` an `asc` page after it.
 */
export function windowAround(older: TimelinePage, newer: TimelinePage): EventWindow {
  return {
    rows: [...[...newer.rows].reverse(), ...older.rows],
    olderCursor: older.nextCursor,
    atNewest: newer.nextCursor === null,
  };
}
