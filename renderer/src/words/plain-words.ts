import { entryKindOf } from '../../../engine/api/message-kind';

/** "1 event", "2 events", "1,234 events": a count with the right form of its noun. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

/**
 * An event kind as words: `model_call` reads "model call"; an unknown kind keeps its own name; an
 * outbox entry of its own kind (`message:status_report`) reads "message (status report)".
 */
export function kindWords(kind: string): string {
  const entryKind = entryKindOf(kind);
  if (entryKind !== null) return `message (${kindWords(entryKind)})`;
  return kind.replace(/[_-]+/g, ' ').trim() || kind;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** A recorded time in the user's own time zone and words, with how long ago it was: "2 hours ago". */
export function localTime(iso: string, now: number = Date.now()): { local: string; relative: string } | null {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  const seconds = Math.round((at - now) / 1000);
  const [unit, size] = UNITS.find(([, length]) => Math.abs(seconds) >= length) ?? ['second', 1];
  return {
    local: new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
    relative:
      seconds === 0
        ? 'just now'
        : new Intl.RelativeTimeFormat(undefined, { numeric: 'always' }).format(
            Math.round(seconds / size),
            unit,
          ),
  };
}

/** A duration as a person reads it: "under 1 ms", "13 ms", "1.2 s", "1 min 5 s". */
export function duration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1) return 'under 1 ms';
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1).replace(/\.0$/, '')} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min${seconds % 60 === 0 ? '' : ` ${seconds % 60} s`}`;
}
