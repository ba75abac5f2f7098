import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { kindWords, localTime } from '../../words/plain-words';
import { useTimeline } from './timeline-store';

export const ROW_HEIGHT = 32;
/** How close (in rows) to either end of the window the list asks for the next page. */
const EDGE_ROWS = 60;

/**
 * The virtualized list of the rows in the window. Only the visible rows (plus a few) are in the DOM;
 * the window itself is bounded, so the virtualizer never sees the timeline's full size.
 */
export function EventList() {
  const rows = useTimeline((store) => store.window.rows);
  const olderCursor = useTimeline((store) => store.window.olderCursor);
  const atNewest = useTimeline((store) => store.window.atNewest);
  const fetching = useTimeline((store) => store.fetching);
  const shift = useTimeline((store) => store.shift);
  const scrollTarget = useTimeline((store) => store.scrollTarget);
  const selected = useTimeline((store) => store.selected);
  const select = useTimeline((store) => store.select);
  const loadOlder = useTimeline((store) => store.loadOlder);
  const loadNewer = useTimeline((store) => store.loadNewer);
  const markSeen = useTimeline((store) => store.markSeen);
  const addUnseen = useTimeline((store) => store.addUnseen);
  const scrollRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.seq ?? index,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items.at(-1)?.index ?? 0;

  useEffect(() => {
    if (rows.length === 0) return;
    if (lastIndex >= rows.length - EDGE_ROWS && olderCursor !== null) void loadOlder();
    else if (firstIndex <= EDGE_ROWS && !atNewest) void loadNewer();
  }, [firstIndex, lastIndex, rows.length, olderCursor, atNewest, fetching, loadOlder, loadNewer]);

  // Rows that entered or left above the viewport move the scroll position by as much, so the rows the
  // user reads stay put; at the very top, live-tail rows are followed instead.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element || shift.rows === 0) return;
    if (shift.reason === 'tail' && element.scrollTop <= 2) return;
    element.scrollTop += shift.rows * ROW_HEIGHT;
    if (shift.reason === 'tail') addUnseen(shift.rows);
  }, [shift, addUnseen]);

  useLayoutEffect(() => {
    if (!scrollTarget) return;
    const index = useTimeline.getState().window.rows.findIndex((row) => row.seq === scrollTarget.seq);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
  }, [scrollTarget, virtualizer]);

  // Arrow keys move the selection (and focus) to the neighbouring row, paging as the edges near.
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    const seq = Number((event.target as HTMLElement).dataset.seq);
    const index = rows.findIndex((row) => row.seq === seq);
    const next = rows[index + step];
    if (step === 0 || index < 0 || !next) return;
    event.preventDefault();
    void select(next.seq);
    virtualizer.scrollToIndex(index + step);
    requestAnimationFrame(() =>
      scrollRef.current?.querySelector<HTMLButtonElement>(`[data-seq="${next.seq}"]`)?.focus(),
    );
  };

  const onScroll = useCallback(() => {
    if ((scrollRef.current?.scrollTop ?? 1) <= 2 && useTimeline.getState().window.atNewest) markSeen();
  }, [markSeen]);

  return (
    <div className="timeline-scroll" ref={scrollRef} onScroll={onScroll} data-testid="timeline-scroll">
      <ul
        className="timeline-rows"
        aria-label="Events"
        aria-describedby="timeline-keys-hint"
        onKeyDown={onKeyDown}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <li
              key={item.key}
              className="timeline-row-item"
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
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
        Up and down arrows move between events.
      </p>
      {fetching && (
        <p className="timeline-fetching" role="status">
          Loading {fetching} events…
        </p>
      )}
    </div>
  );
}
