import { create } from 'zustand';
import type {
  IpcResult,
  JobProgress,
  TimelineEvent,
  TimelineFacets,
  TimelinePage,
  TimelineQuery,
} from '../../../../engine/api';
import { serverState } from '../../server-state/instance';
import { countOf } from '../../words/plain-words';
import type { TimelineFocus } from '../../stores/navigation-store';
import {
  EMPTY_WINDOW,
  PAGE_ROWS,
  windowAround,
  windowAt,
  windowFromNewest,
  withNewer,
  withOlder,
  type EventWindow,
} from './event-window';
import { NO_FILTER, toTimelineFilter, type FilterFields } from './timeline-filter';

/**
 * Matching events that arrived above the rows the user sees (the live tail): every row moves down by
 * as many. The list follows them when the user is at the top, else moves its scroll position by as
 * much, so nothing jumps, and counts them as unseen.
 */
export interface WindowShift {
  rows: number;
  version: number;
}

export type Detail =
  | { status: 'loading'; seq: number }
  | { status: 'loaded'; event: TimelineEvent }
  | { status: 'failed'; seq: number; message: string };

export type Notice = { tone: 'ok' | 'bad'; text: string } | null;

interface TimelineStore {
  fields: FilterFields;
  facets: TimelineFacets | null;
  window: EventWindow;
  /** How many events match the filters: the list is this long, rows outside the window are placeholders. */
  total: number;
  /** True until the first page of the current filter has arrived. */
  reloading: boolean;
  fetching: 'older' | 'newer' | 'position' | null;
  error: string | null;
  shift: WindowShift;
  /** New events the user has not scrolled up to see yet. */
  unseen: number;
  latestSeq: number;
  selected: number | null;
  detail: Detail | null;
  /** An event the list should scroll to (after a jump), with a version so repeated jumps scroll again. */
  scrollTarget: { seq: number; version: number } | null;
  notice: Notice;
  exporting: boolean;
  /** The export going on, as its last `job.progress` told (null until the file is picked and it starts). */
  exportJob: JobProgress | null;

  /** Reads the facets and the first page, or opens on `focus` (an agent, a tick) when another view asked. */
  start(focus?: TimelineFocus | null): Promise<void>;
  /** Shows one agent's events (all agents when none), around a tick when one is given. */
  focusOn(focus: TimelineFocus): Promise<void>;
  refreshFacets(): Promise<void>;
  setFields(patch: Partial<FilterFields>): Promise<void>;
  reload(): Promise<void>;
  loadOlder(): Promise<void>;
  loadNewer(): Promise<void>;
  /** Reads the rows from `position` rows below the newest matching event (the scrollbar was dragged there). */
  seek(position: number): Promise<void>;
  timelineAppended(lastSeq: number): Promise<void>;
  markSeen(): void;
  addUnseen(count: number): void;
  jumpToTick(tick: number): Promise<void>;
  select(seq: number): Promise<void>;
  exportFiltered(): Promise<void>;
  /** Stops the export going on; it leaves no file. */
  cancelExport(): Promise<void>;
  dismissNotice(): void;
  /** The view closed: its rows go (the filters stay), so coming back reads the timeline afresh. */
  leave(): void;
}

/**
 * The filter lists learn new kinds and agents at most this often while events stream in, and once more
 * after the last events of a burst (so an agent whose events came just after a refresh is not missed).
 */
const FACETS_REFRESH_MS = 2000;
let facetsReadAt = 0;
let facetsRefreshLater: ReturnType<typeof setTimeout> | null = null;
/** The newest event announced while the list was being read again, caught up on when the read is done. */
let appendedWhileReloading = 0;

function cancelLaterFacetsRefresh(): void {
  if (facetsRefreshLater !== null) clearTimeout(facetsRefreshLater);
  facetsRefreshLater = null;
}

/** Bumped on every reload, so pages of an older filter that arrive late are dropped. */
let generation = 0;

function page(query: TimelineQuery): Promise<IpcResult<TimelinePage>> {
  return serverState().read('timeline.page', query);
}

/** The detail pane follows the list: an event the filter no longer shows is no longer the one shown. */
function hiddenSelection(selected: number | null, window: EventWindow): Partial<TimelineStore> {
  return selected !== null && !window.rows.some((row) => row.seq === selected)
    ? { selected: null, detail: null }
    : {};
}

export const useTimeline = create<TimelineStore>((set, get) => {
  const query = (extra: Partial<TimelineQuery>): TimelineQuery => ({
    ...toTimelineFilter(get().fields),
    limit: PAGE_ROWS,
    ...extra,
  });
  const shifted = (rows: number): WindowShift => ({ rows, version: get().shift.version + 1 });
  /** The filter lists read again when events they have not seen arrived (at most every FACETS_REFRESH_MS). */
  const refreshFacetsIfBehind = () => {
    if ((get().facets?.latestSeq ?? 0) >= get().latestSeq) return;
    const sinceFacets = Date.now() - facetsReadAt;
    if (sinceFacets > FACETS_REFRESH_MS) void get().refreshFacets();
    else facetsRefreshLater ??= setTimeout(() => void get().refreshFacets(), FACETS_REFRESH_MS - sinceFacets);
  };
  /** After the list was read again: events announced meanwhile, and the filter lists, are caught up on. */
  const afterReload = () => {
    const missed = appendedWhileReloading;
    appendedWhileReloading = 0;
    if (missed > get().latestSeq) void get().timelineAppended(missed);
    else refreshFacetsIfBehind();
  };

  return {
    fields: NO_FILTER,
    facets: null,
    window: EMPTY_WINDOW,
    total: 0,
    reloading: true,
    fetching: null,
    error: null,
    shift: { rows: 0, version: 0 },
    unseen: 0,
    latestSeq: 0,
    selected: null,
    detail: null,
    scrollTarget: null,
    notice: null,
    exporting: false,
    exportJob: null,

    async start(focus) {
      await get().refreshFacets();
      await (focus ? get().focusOn(focus) : get().reload());
    },

    async focusOn(focus) {
      set({ fields: { ...NO_FILTER, agent: focus.agent ?? '' } });
      await (focus.tick === undefined ? get().reload() : get().jumpToTick(focus.tick));
    },

    async refreshFacets() {
      cancelLaterFacetsRefresh();
      facetsReadAt = Date.now();
      const facets = await serverState().read('timeline.facets', {});
      if (facets.ok)
        set({ facets: facets.value, latestSeq: Math.max(get().latestSeq, facets.value.latestSeq) });
      else set({ error: facets.error.message });
    },

    async setFields(patch) {
      set({ fields: { ...get().fields, ...patch } });
      await get().reload();
    },

    async reload() {
      const mine = ++generation;
      set({ reloading: true, fetching: null, unseen: 0 });
      const result = await page(query({ direction: 'desc', withTotal: true }));
      if (mine !== generation) return;
      if (!result.ok)
        return set({ reloading: false, error: result.error.message, window: EMPTY_WINDOW, total: 0 });
      const window = windowFromNewest(result.value);
      set({
        reloading: false,
        error: null,
        window,
        total: result.value.total ?? window.rows.length,
        ...hiddenSelection(get().selected, window),
        latestSeq: Math.max(get().latestSeq, result.value.latestSeq),
        scrollTarget: null,
        shift: shifted(0),
      });
      afterReload();
    },

    async loadOlder() {
      const { window, fetching, reloading } = get();
      if (fetching || reloading || window.olderCursor === null) return;
      const mine = generation;
      set({ fetching: 'older' });
      const result = await page(query({ direction: 'desc', cursor: window.olderCursor }));
      if (mine !== generation) return;
      if (!result.ok) return set({ fetching: null, error: result.error.message });
      set({ fetching: null, window: withOlder(get().window, result.value) });
    },

    async loadNewer() {
      const { window, fetching, reloading } = get();
      if (fetching || reloading) return;
      const mine = generation;
      set({ fetching: 'newer' });
      const result = await page(query({ direction: 'asc', cursor: window.rows[0]?.seq ?? 0 }));
      if (mine !== generation) return;
      if (!result.ok) return set({ fetching: null, error: result.error.message });
      set({
        fetching: null,
        window: withNewer(get().window, result.value),
        latestSeq: Math.max(get().latestSeq, result.value.latestSeq),
      });
    },

    async seek(position) {
      const { fetching, reloading } = get();
      if (fetching || reloading) return;
      const mine = generation;
      set({ fetching: 'position' });
      const result = await page(query({ direction: 'desc', position, withTotal: true }));
      if (mine !== generation) return;
      if (!result.ok) return set({ fetching: null, error: result.error.message });
      set({ fetching: null, window: windowAt(result.value), total: result.value.total ?? get().total });
    },

    async timelineAppended(lastSeq) {
      if (get().reloading) {
        appendedWhileReloading = Math.max(appendedWhileReloading, lastSeq);
        return;
      }
      const before = get().latestSeq;
      if (lastSeq <= before) return;
      set({ latestSeq: lastSeq });
      refreshFacetsIfBehind();
      // At the newest end, the new rows are read too; elsewhere only how many matching events arrived.
      const following = get().window.atNewest;
      const mine = generation;
      const result = await page(
        query(
          following
            ? { direction: 'asc', cursor: get().window.rows[0]?.seq ?? 0, withTotal: true }
            : { direction: 'desc', limit: 1, withTotal: true },
        ),
      );
      if (mine !== generation) return;
      if (!result.ok) return set({ error: result.error.message });
      const total = result.value.total ?? get().total;
      const arrived = Math.max(0, total - get().total);
      const window =
        following && get().window.atNewest ? withNewer(get().window, result.value) : get().window;
      set({
        total,
        window: { ...window, offset: window.offset + arrived },
        latestSeq: Math.max(get().latestSeq, result.value.latestSeq),
        shift: shifted(arrived),
      });
    },

    markSeen() {
      if (get().unseen !== 0) set({ unseen: 0 });
    },

    addUnseen(count) {
      set({ unseen: get().unseen + count });
    },

    async jumpToTick(tick) {
      const mine = ++generation;
      set({ reloading: true, fetching: null, notice: null });
      const first = await page(query({ direction: 'asc', tickFrom: tick, limit: 1 }));
      if (mine !== generation) return;
      if (!first.ok) return set({ reloading: false, error: first.error.message });
      const target = first.value.rows[0];
      if (!target) {
        set({
          reloading: false,
          notice: { tone: 'bad', text: `No event at tick ${tick} or later matches the filters.` },
        });
        return;
      }
      const [older, newer] = await Promise.all([
        page(query({ direction: 'desc', cursor: target.seq + 1, withTotal: true })),
        page(query({ direction: 'asc', cursor: target.seq, limit: PAGE_ROWS / 2 })),
      ]);
      if (mine !== generation) return;
      if (!older.ok || !newer.ok) {
        const failed = !older.ok ? older.error : !newer.ok ? newer.error : null;
        return set({ reloading: false, error: failed?.message ?? 'The timeline could not be read.' });
      }
      set({
        reloading: false,
        error: null,
        unseen: 0,
        window: windowAround(older.value, newer.value),
        total: older.value.total ?? get().total,
        scrollTarget: { seq: target.seq, version: (get().scrollTarget?.version ?? 0) + 1 },
      });
      afterReload();
      await get().select(target.seq);
    },

    async select(seq) {
      set({ selected: seq, detail: { status: 'loading', seq } });
      const result = await serverState().read('timeline.get', { seq });
      if (get().selected !== seq) return;
      set({
        detail: result.ok
          ? { status: 'loaded', event: result.value }
          : { status: 'failed', seq, message: result.error.message },
      });
    },

    async exportFiltered() {
      set({ exporting: true, exportJob: null, notice: null });
      const following = serverState().on('job.progress', (progress) => {
        if (progress.kind === 'timeline_export' && !progress.ended) set({ exportJob: progress });
      });
      const result = await serverState()
        .write('timeline.export', { filter: toTimelineFilter(get().fields) })
        .finally(following);
      set({ exporting: false, exportJob: null });
      if (!result.ok) return set({ notice: { tone: 'bad', text: `Export failed: ${result.error.message}` } });
      if (result.value.path === null) return set({ notice: { tone: 'ok', text: 'Export cancelled.' } });
      const count = countOf(result.value.exported, 'event');
      set({ notice: { tone: 'ok', text: `Exported ${count} to ${result.value.path}` } });
    },

    async cancelExport() {
      const job = get().exportJob;
      if (job) await serverState().write('jobs.cancel', { id: job.id });
    },

    dismissNotice() {
      set({ notice: null });
    },

    leave() {
      generation++;
      cancelLaterFacetsRefresh();
      appendedWhileReloading = 0;
      set({
        window: EMPTY_WINDOW,
        total: 0,
        reloading: true,
        fetching: null,
        unseen: 0,
        selected: null,
        detail: null,
        scrollTarget: null,
      });
    },
  };
});
