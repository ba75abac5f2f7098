import { describe, expect, it } from 'vitest';
import type { TimelinePage, TimelineRowSummary } from '../../../../engine/api';
import {
  windowAround,
  windowAt,
  windowFromNewest,
  windowReaches,
  withNewer,
  withOlder,
} from './event-window';

function row(seq: number): TimelineRowSummary {
  return { seq, kind: 'note', agent: null, tick: null, runId: null, time: null, summary: '', bytes: 2 };
}
function page(seqs: number[], nextCursor: number | null, position?: number): TimelinePage {
  return { rows: seqs.map(row), nextCursor, latestSeq: 100, ...(position === undefined ? {} : { position }) };
}
const seqsOf = (rows: TimelineRowSummary[]) => rows.map((r) => r.seq);

describe('event window', () => {
  it('starts at the newest page and reads older pages below it', () => {
    const window = withOlder(windowFromNewest(page([10, 9, 8], 8)), page([7, 6], null));
    expect(seqsOf(window.rows)).toEqual([10, 9, 8, 7, 6]);
    expect(window).toMatchObject({ offset: 0, olderCursor: null, atNewest: true });
  });

  it('drops the newest rows when older pages make it too big, and then starts further down', () => {
    const window = withOlder(windowFromNewest(page([10, 9, 8], 8)), page([7, 6], 6), 4);
    expect(seqsOf(window.rows)).toEqual([9, 8, 7, 6]);
    expect(window).toMatchObject({ offset: 1, olderCursor: 6, atNewest: false });
  });

  it('puts newer (ascending) rows on top, newest first, starting as many rows higher', () => {
    const start = { rows: [row(5), row(4), row(3)], offset: 7, olderCursor: 3, atNewest: false };
    const window = withNewer(start, page([6, 7], null), 4);
    expect(seqsOf(window.rows)).toEqual([7, 6, 5, 4]);
    expect(window).toMatchObject({ offset: 5, olderCursor: 4, atNewest: true });
  });

  it('ignores rows it already holds', () => {
    const window = withNewer(windowFromNewest(page([5, 4], null)), page([5, 6], 6));
    expect(seqsOf(window.rows)).toEqual([6, 5, 4]);
    expect(window).toMatchObject({ offset: -1, atNewest: false });
  });

  it('builds the window around a jump target from an older page that says where it is and a newer page', () => {
    const window = windowAround(page([50, 49, 48], 48, 40), page([51, 52], 52));
    expect(seqsOf(window.rows)).toEqual([52, 51, 50, 49, 48]);
    expect(window).toMatchObject({ offset: 38, olderCursor: 48, atNewest: false });
  });

  it('holds a page read at a position, and knows which rows it reaches', () => {
    const window = windowAt(page([500, 499], 499, 1000));
    expect(window).toMatchObject({ offset: 1000, atNewest: false });
    expect(windowReaches(window, 990, 999, 5)).toBe(true);
    expect(windowReaches(window, 1001, 1020, 0)).toBe(true);
    expect(windowReaches(window, 1010, 1020, 5)).toBe(false);
    expect(windowReaches(windowAt(page([9], null, 0)), 0, 3, 0)).toBe(true);
  });
});
