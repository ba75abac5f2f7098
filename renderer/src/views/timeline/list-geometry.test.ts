import { describe, expect, it } from 'vitest';
import { MAX_LIST_PX, ROW_HEIGHT, viewOf } from './list-geometry';

describe('the geometry of the Timeline list', () => {
  it('is as tall as every row, and a scroll offset is a row position', () => {
    const view = viewOf(120_000, 5000 * ROW_HEIGHT, 640);
    expect(view.heightPx).toBe(120_000 * ROW_HEIGHT);
    expect([view.first, view.last]).toEqual([5000, 5020]);
    expect(view.rowTop(5000)).toBe(5000 * ROW_HEIGHT);
  });

  it('past the tallest list a browser draws, spans every row at a smaller scale', () => {
    const count = 5_000_000;
    const viewportPx = 640;
    const top = viewOf(count, 0, viewportPx);
    expect(top.heightPx).toBe(MAX_LIST_PX);
    expect([top.first, top.rowTop(0)]).toEqual([0, 0]);
    const end = viewOf(count, MAX_LIST_PX - viewportPx, viewportPx);
    expect(end.last).toBe(count - 1);
    // The last row sits at the bottom of the viewport, rows keep their height.
    expect(end.rowTop(count - 1) + ROW_HEIGHT).toBeCloseTo(MAX_LIST_PX, 3);
    expect(end.rowTop(count - 2)).toBeCloseTo(end.rowTop(count - 1) - ROW_HEIGHT, 6);
    const middle = viewOf(count, (MAX_LIST_PX - viewportPx) / 2, viewportPx);
    expect(Math.abs(middle.first - count / 2)).toBeLessThan(20);
  });

  it('shows nothing of an empty result', () => {
    expect(viewOf(0, 0, 640)).toMatchObject({ heightPx: 0, first: 0, last: 0 });
  });
});
