import { useEffect } from 'react';
import { GlossaryLink } from '../../components/Glossary';
import { serverState } from '../../server-state/instance';
import { countOf } from '../../words/plain-words';
import { useNavigation } from '../../stores/navigation-store';
import { EventDetail } from './EventDetail';
import { EventList } from './EventList';
import { isFiltered, NO_FILTER } from './timeline-filter';
import { TimelineFilters } from './TimelineFilters';
import { useTimeline } from './timeline-store';
import './timeline.css';

/** Everything the org recorded: filterable, virtualized, paged from the timeline, following the live tail. */
export function TimelineView() {
  const start = useTimeline((store) => store.start);
  const focusOn = useTimeline((store) => store.focusOn);
  const setFields = useTimeline((store) => store.setFields);
  const timelineAppended = useTimeline((store) => store.timelineAppended);
  const leave = useTimeline((store) => store.leave);

  useEffect(() => {
    // Another view may have asked for an agent or a tick (navigation's timelineFocus): take it once.
    const takeFocus = () => {
      const focus = useNavigation.getState().timelineFocus;
      if (focus) useNavigation.setState({ timelineFocus: null });
      return focus;
    };
    void start(takeFocus());
    const offFocus = useNavigation.subscribe((state) => {
      if (state.timelineFocus) void focusOn(takeFocus()!);
    });
    const offAppended = serverState().on(
      'timeline.appended',
      ({ lastSeq }) => void timelineAppended(lastSeq),
    );
    const offOrg = serverState().on('org.changed', () => void setFields(NO_FILTER).then(() => start()));
    return () => {
      offFocus();
      offAppended();
      offOrg();
      leave();
    };
  }, [start, focusOn, setFields, timelineAppended, leave]);

  return (
    <section className="timeline-view" aria-labelledby="timeline-heading">
      <header className="timeline-header">
        <h2 id="timeline-heading">Timeline</h2>
        <TimelineStatus />
        <ExportButton />
      </header>
      <TimelineFilters />
      <TimelineNotice />
      <div className="timeline-body">
        <div className="timeline-list-pane">
          <NewEventsButton />
          <TimelineListOrEmpty />
        </div>
        <EventDetail />
      </div>
    </section>
  );
}

function TimelineStatus() {
  const latestSeq = useTimeline((store) => store.latestSeq);
  const total = useTimeline((store) => store.total);
  const filtered = useTimeline((store) => isFiltered(store.fields));
  const reloading = useTimeline((store) => store.reloading);
  return (
    <p className="muted timeline-status">
      {countOf(latestSeq, 'event')} recorded
      {filtered && !reloading
        ? `; ${total.toLocaleString()} ${total === 1 ? 'matches' : 'match'} the filters`
        : ''}
    </p>
  );
}

function ExportButton() {
  const exporting = useTimeline((store) => store.exporting);
  const job = useTimeline((store) => store.exportJob);
  const exportFiltered = useTimeline((store) => store.exportFiltered);
  const cancelExport = useTimeline((store) => store.cancelExport);
  const filtered = useTimeline((store) => isFiltered(store.fields));
  // While it writes: how far it is, and a way out (the file is left only when the export is complete).
  if (job)
    return (
      <span className="timeline-export">
        <progress value={job.done} max={Math.max(job.total, 1)} aria-label="Export progress" />
        <span>
          Exporting {job.done.toLocaleString()} of {countOf(job.total, 'event')}…
        </span>
        <button type="button" onClick={() => void cancelExport()}>
          Cancel
        </button>
      </span>
    );
  return (
    <button type="button" disabled={exporting} onClick={() => void exportFiltered()}>
      {exporting ? 'Exporting…' : filtered ? 'Export filtered events…' : 'Export all events…'}
    </button>
  );
}

function TimelineNotice() {
  const notice = useTimeline((store) => store.notice);
  const error = useTimeline((store) => store.error);
  const dismiss = useTimeline((store) => store.dismissNotice);
  return (
    <>
      {error && (
        <p className="inline-alert" role="alert">
          The timeline could not be read: {error}
        </p>
      )}
      {notice && (
        <p className={`timeline-notice ${notice.tone}`} role={notice.tone === 'bad' ? 'alert' : 'status'}>
          {notice.text}
          <button type="button" className="link-button" onClick={dismiss}>
            Dismiss
          </button>
        </p>
      )}
    </>
  );
}

function NewEventsButton() {
  const unseen = useTimeline((store) => store.unseen);
  const atNewest = useTimeline((store) => store.window.atNewest);
  const reload = useTimeline((store) => store.reload);
  const markSeen = useTimeline((store) => store.markSeen);
  if (unseen === 0) return null;
  const show = () => {
    if (!atNewest) return void reload();
    document.querySelector('[data-testid="timeline-scroll"]')?.scrollTo({ top: 0 });
    markSeen();
  };
  return (
    <button type="button" className="new-events" onClick={show}>
      {countOf(unseen, 'new event', 'new events')} — show
    </button>
  );
}

function TimelineListOrEmpty() {
  const reloading = useTimeline((store) => store.reloading);
  const empty = useTimeline((store) => store.total === 0 && store.window.rows.length === 0);
  const filtered = useTimeline((store) => isFiltered(store.fields));
  const setFields = useTimeline((store) => store.setFields);
  if (empty && reloading) return <p role="status">Loading events…</p>;
  if (empty && filtered)
    return (
      <div className="empty-state">
        <h3>No events match these filters</h3>
        <p>Try another agent, kind, tick range or search text.</p>
        <button type="button" onClick={() => void setFields(NO_FILTER)}>
          Clear filters
        </button>
      </div>
    );
  if (empty)
    return (
      <div className="empty-state">
        <h3>Nothing has happened yet</h3>
        <p>
          Start a run or step one <GlossaryLink term="tick" /> with the run controls: every message, model
          call, tool use and credit charge of the agents appears here as it happens.
        </p>
      </div>
    );
  return <EventList />;
}
