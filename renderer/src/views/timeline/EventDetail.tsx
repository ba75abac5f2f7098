import { useMemo, useState } from 'react';
import type { TimelineEvent } from '../../../../engine/api';
import { openRehearsal, openTurn } from '../../stores/open-turn';
import { kindWords, localTime } from '../../words/plain-words';
import { describeEvent } from './event-description';
import { useToolTitles } from '../../shared/tool-titles';
import { formatJsonText } from '../../components/format-json-text';
import { useTimeline } from './timeline-store';

/** Events above this size are shown unindented: indenting megabytes of JSON would stall the pane. */
const FORMAT_LIMIT = 512 * 1024;

/** The selected event: what it is in words, then its JSON exactly as stored, with a copy button. */
export function EventDetail() {
  const detail = useTimeline((store) => store.detail);

  return (
    <section className="timeline-detail" aria-labelledby="timeline-detail-heading">
      {detail === null && (
        <>
          <h3 id="timeline-detail-heading">Event details</h3>
          <p className="muted">Select an event in the list to see everything it recorded.</p>
        </>
      )}
      {detail?.status === 'loading' && (
        <>
          <h3 id="timeline-detail-heading">Event {detail.seq}</h3>
          <p role="status">Loading…</p>
        </>
      )}
      {detail?.status === 'failed' && (
        <>
          <h3 id="timeline-detail-heading">Event {detail.seq}</h3>
          <p className="inline-alert" role="alert">
            Could not load this event: {detail.message}
          </p>
        </>
      )}
      {detail?.status === 'loaded' && <LoadedEvent event={detail.event} />}
    </section>
  );
}

function LoadedEvent({ event }: { event: TimelineEvent }) {
  const titles = useToolTitles();
  const description = useMemo(() => describeEvent(event.kind, event.json, titles), [event, titles]);
  const formatted = useMemo(
    () => (event.json.length > FORMAT_LIMIT ? event.json : formatJsonText(event.json)),
    [event],
  );
  const facts = [
    { label: 'Event', value: `#${event.seq}` },
    { label: 'Agent', value: event.agent ?? 'the org' },
    { label: 'Tick', value: event.tick === null ? '—' : String(event.tick) },
    { label: 'Kind', value: kindWords(event.kind) },
    ...(event.time ? [{ label: 'Time', value: timeInWords(event.time) }] : []),
    ...description.facts,
  ];
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');

  const copy = () => {
    navigator.clipboard.writeText(event.json).then(
      () => setCopied('copied'),
      () => setCopied('failed'),
    );
  };

  return (
    <>
      <h3 id="timeline-detail-heading">{description.title}</h3>
      <dl className="timeline-facts">
        {facts.map((fact, index) => (
          <div key={index} className="timeline-fact">
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      {event.agent !== null && event.tick !== null && (
        <button type="button" className="open-turn" onClick={() => openTurn(event.agent!, event.tick!)}>
          Open this turn in the inspector
        </button>
      )}
      {event.kind === 'rehearsal' && description.known && (
        <button type="button" className="open-turn" onClick={() => openRehearsal(event.seq)}>
          Open this rehearsal in the inspector
        </button>
      )}
      {!description.known && (
        <p className="muted">
          This app does not know events of this kind or shape. Every field it recorded is shown below, exactly
          as stored.
        </p>
      )}
      <div className="timeline-raw-heading">
        <h4 id="timeline-raw-heading">Raw JSON</h4>
        <button type="button" onClick={copy}>
          Copy JSON
        </button>
        <span role="status" className="muted">
          {copied === 'copied'
            ? 'Copied'
            : copied === 'failed'
              ? 'Could not copy: the clipboard refused.'
              : ''}
        </span>
      </div>
      <pre className="timeline-raw" aria-labelledby="timeline-raw-heading" tabIndex={0}>
        {formatted}
      </pre>
    </>
  );
}

/** The user's local time and how long ago, e.g. "10 Jan 2026, 14:02:07 (2 hours ago)"; a time it cannot read, as recorded. */
function timeInWords(recorded: string): string {
  const time = localTime(recorded);
  return time ? `${time.local} (${time.relative})` : recorded;
}
