import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { kindWords, localTime } from '../../words/plain-words';
import { PAGE_ROWS, windowReaches } from './event-window';
import { ROW_HEIGHT, viewOf } from './list-geometry';
import { useTimeline } from './timeline-store';

/** How close (in rows) to either end of the window the list asks for the next page. */
const EDGE_ROWS = 60;
/** Rows drawn above and below the viewport, so a fast scroll does not show blank space. */
const OVERSCAN_ROWS = 12;

/**
 * The list of every event matching the filters, as long as the whole result: its scrollbar spans all
 * of it and can be dragged anywhere. Only the rows in view (plus a few) are in the DOM; the store holds
 * a bounded window of them, read in keyset pages as the user scrolls and by position when the user
 * jumps further; rows not read yet are placeholders.
 */
export function EventList() {
  const window = useTimeline((store) => store.window);
  const total = useTimeline((store) => store.total);
  const fetching = useTimeline((store) => store.fetching);
  const reloading = useTimeline((store) => store.reloading);
  const shift = useTimeline((store) => store.shift);
  const scrollTarget = useTimeline((store) => store.scrollTarget);
  const selected = useTimeline((store) => store.selected);
  const select = useTimeline((store) => store.select);
  const loadOlder = useTimeline((store) => store.loadOlder);
  const loadNewer = useTimeline((store) => store.loadNewer);
  const seek = useTimeline((store) => store.seek);
  const markSeen = useTimeline((store) => store.markSeen);
  const addUnseen = useTimeline((store) => store.addUnseen);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, viewportPx: 0 });

  const { rows, offset } = window;
  const count = Math.max(total, offset + rows.length);
  const view = viewOf(count, scroll.top, scroll.viewportPx);
  const { first, last } = view;
  // For the effects below (declared after this one, so they see the scale of the render they follow).
  const pxPerRow = useRef(view.pxPerRow);
  useLayoutEffect(() => {
    pxPerRow.current = view.pxPerRow;
  }, [view.pxPerRow]);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const measure = () => setScroll({ top: element.scrollTop, viewportPx: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Rows near the window's ends are paged in by keyset; rows further away are read by position.
  useEffect(() => {
    if (count === 0 || reloading || fetching) return;
    if (!windowReaches(window, first, last, EDGE_ROWS)) void seek(Math.max(0, first - PAGE_ROWS / 4));
    else if (last >= offset + rows.length - EDGE_ROWS && window.olderCursor !== null) void loadOlder();
    else if (first <= offset + EDGE_ROWS && !window.atNewest) void loadNewer();
  }, [first, last, window, offset, rows.length, count, reloading, fetching, seek, loadOlder, loadNewer]);

  // Events that arrived above move every row down: at the very top they are followed, elsewhere the
  // scroll position moves by as much, so the rows the user reads stay put.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || shift.rows === 0 || element.scrollTop <= 2) return;
    element.scrollTop += shift.rows * pxPerRow.current;
    addUnseen(shift.rows);
  }, [shift, addUnseen]);

  const scrollToRow = useCallback((index: number, align: 'center' | 'nearest') => {
    const element = scrollRef.current;
    if (!element) return;
    const top = index * pxPerRow.current;
    if (align === 'center') element.scrollTop = top - (element.clientHeight - ROW_HEIGHT) / 2;
    else if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT > element.scrollTop + element.clientHeight)
      element.scrollTop = top + ROW_HEIGHT - element.clientHeight;
  }, []);

  useLayoutEffect(() => {
    if (!scrollTarget) return;
    const { window: current } = useTimeline.getState();
    const index = current.rows.findIndex((row) => row.seq === scrollTarget.seq);
    if (index >= 0) scrollToRow(current.offset + index, 'center');
  }, [scrollTarget, scrollToRow]);

  const focusRow = useCallback((seq: number) => {
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLButtonElement>(`[data-seq="${seq}"]`)?.focus(),
    );
  }, []);

  // Home and End select the newest and the oldest event; when that row is not read yet, the list
  // scrolls there and selects it once its page arrives.
  const edgeWanted = useRef<'first' | 'last' | null>(null);
  const selectEdge = useCallback(() => {
    if (edgeWanted.current === null || count === 0) return;
    const index = edgeWanted.current === 'first' ? 0 : count - 1;
    const row = rows[index - offset];
    if (!row) return;
    edgeWanted.current = null;
    void select(row.seq);
    scrollToRow(index, 'nearest');
    focusRow(row.seq);
  }, [rows, offset, count, select, scrollToRow, focusRow]);
  useEffect(selectEdge, [selectEdge]);

  // Arrow keys move the selection (and focus) to the neighbouring row, paging as the edges near.
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      const element = scrollRef.current;
      if (element) element.scrollTop = event.key === 'Home' ? 0 : element.scrollHeight;
      edgeWanted.current = event.key === 'Home' ? 'first' : 'last';
      selectEdge();
      return;
    }
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    const seq = Number((event.target as HTMLElement).dataset.seq);
    const index = rows.findIndex((row) => row.seq === seq);
    const next = rows[index + step];
    if (step === 0 || index < 0 || !next) return;
    event.preventDefault();
    void select(next.seq);
    scrollToRow(offset + index + step, 'nearest');
    focusRow(next.seq);
  };

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    setScroll({ top: element.scrollTop, viewportPx: element.clientHeight });
    if (element.scrollTop <= 2) markSeen();
  }, [markSeen]);

  const drawn: number[] = [];
  for (
    let index = Math.max(0, view.first - OVERSCAN_ROWS);
    index <= Math.min(count - 1, view.last + OVERSCAN_ROWS);
    index++
  )
    drawn.push(index);

  return (
    <div className="timeline-scroll" ref={scrollRef} onScroll={onScroll} data-testid="timeline-scroll">
      <ul
        className="timeline-rows"
        aria-label="Events"
        aria-describedby="timeline-keys-hint"
        onKeyDown={onKeyDown}
        style={{ height: view.heightPx }}
      >
        {drawn.map((index) => {
          const row = rows[index - offset];
          // `top`, not a transform: layout positions are exact up to 33.5M px, a transform's floats are not past 16.7M.
          const style = { top: view.rowTop(index), height: ROW_HEIGHT };
          if (!row)
            return (
              <li key={`position-${index}`} className="timeline-row-item" style={style} aria-hidden="true">
                <span className="timeline-row timeline-row-placeholder">Loading…</span>
              </li>
            );
          return (
            <li key={row.seq} className="timeline-row-item" style={style}>
              <button
                type="button"
                className="timeline-row"
                aria-current={row.seq === selected ? 'true' : undefined}
                data-seq={row.seq}
                title={row.time ? localTime(row.time)?.local : undefined}
                onClick={() => void select(row.seq)}
              >
                <span className="timeline-cell tick">{row.tick === null ? '—' : `tick ${row.tick}`}</span>
                <span className="timeline-cell agent">{row.agent ?? 'org'}</span>
                <span className="timeline-cell kind" data-kind={row.kind}>
                  {kindWords(row.kind)}
                </span>
                <span className="timeline-cell summary">{row.summary}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <p id="timeline-keys-hint" className="visually-hidden">
        Up and down arrows move between events; Home and End go to the newest and the oldest.
      </p>
      {fetching && (
        <p className="timeline-fetching" role="status">
          Loading {fetching === 'position' ? '' : `${fetching} `}events…
        </p>
      )}
    </div>
  );
}
