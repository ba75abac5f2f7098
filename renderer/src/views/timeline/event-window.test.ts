import { describe, expect, it } from 'vitest';
import type { TimelinePage, TimelineRowSummary } from '../../../../engine/api';
import { windowAround, windowFromNewest, withNewer, withOlder } from './event-window';

function row(seq: number): TimelineRowSummary {
  return { seq, kind: 'note', agent: null, tick: null, runId: null, time: null, summary: '', bytes: 2 };
}
function page(seqs: number[], nextCursor: number | null): TimelinePage {
  return { rows: seqs.map(row), nextCursor, latestSeq: 100 };
}
const seqsOf = (rows: TimelineRowSummary[]) => rows.map((r) => r.seq);

describe('event window', () => {
  it('starts at the newest page and reads older pages below it', () => {
    const first = windowFromNewest(page([10, 9, 8], 8));
    const { window, shiftTop } = withOlder(first, page([7, 6], null));
    expect(seqsOf(window.rows)).toEqual([10, 9, 8, 7, 6]);
    expect(window).toMatchObject({ olderCursor: null, atNewest: true });
    expect(shiftTop).toBe(0);
  });

  it('drops the newest rows when older pages make it too big, and then is no longer at the newest end', () => {
    const { window, shiftTop } = withOlder(windowFromNewest(page([10, 9, 8], 8)), page([7, 6], 6), 4);
    expect(seqsOf(window.rows)).toEqual([9, 8, 7, 6]);
    expect(window).toMatchObject({ olderCursor: 6, atNewest: false });
    expect(shiftTop).toBe(-1);
  });

  it('puts newer (ascending) rows on top, newest first, and drops the oldest when too big', () => {
    const start = { rows: [row(5), row(4), row(3)], olderCursor: 3, atNewest: false };
    const { window, shiftTop } = withNewer(start, page([6, 7], null), 4);
    expect(seqsOf(window.rows)).toEqual([7, 6, 5, 4]);
    expect(window).toMatchObject({ olderCursor: 4, atNewest: true });
    expect(shiftTop).toBe(2);
  });

  it('ignores rows it already holds when following the tail', () => {
    const start = windowFromNewest(page([5, 4], null));
    const { window, shiftTop } = withNewer(start, page([5, 6], 6));
    expect(seqsOf(window.rows)).toEqual([6, 5, 4]);
    expect(window.atNewest).toBe(false);
    expect(shiftTop).toBe(1);
  });

  it('builds the window around a jump target from an older and a newer page', () => {
    const window = windowAround(page([50, 49, 48], 48), page([51, 52], 52));
    expect(seqsOf(window.rows)).toEqual([52, 51, 50, 49, 48]);
    expect(window).toMatchObject({ olderCursor: 48, atNewest: false });
  });
});
