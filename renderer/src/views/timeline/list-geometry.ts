/** Every row of the Timeline list is this tall, so a position in the result is a scroll offset. */
export const ROW_HEIGHT = 32;
/**
 * The tallest list this draws, in pixels: Chromium lays out nothing taller than about 33.5 million.
 * A longer result is drawn this tall, and a pixel of scrolling stands for more than one row.
 */
export const MAX_LIST_PX = 32_000_000;

/** Which rows a scroll position shows, and where each is drawn. */
export function viewOf(count: number, scrollTop: number, viewportPx: number) {
  const fullPx = count * ROW_HEIGHT;
  const heightPx = Math.min(fullPx, MAX_LIST_PX);
  const viewportRows = viewportPx / ROW_HEIGHT;
  const pxPerRow =
    fullPx <= MAX_LIST_PX ? ROW_HEIGHT : (heightPx - viewportPx) / Math.max(1, count - viewportRows);
  const exact = scrollTop / pxPerRow;
  const first = Math.max(0, Math.min(count - 1, Math.floor(exact)));
  const last = Math.max(0, Math.min(count - 1, Math.floor(exact + viewportRows)));
  return {
    heightPx,
    pxPerRow,
    first,
    last,
    rowTop: (index: number) => scrollTop + (index - exact) * ROW_HEIGHT,
  };
}
