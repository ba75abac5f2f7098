import { readAttachment } from '../timeline/attachments';
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { entryKindOf } from '../api/message-kind';
import { fail, ok, type IpcResult } from '../api/result';
import type {
  TimelineEvent,
  TimelineExportResult,
  TimelineFacets,
  TimelineImportResult,
  TimelineFilter,
  TimelinePage,
  TimelineQuery,
} from '../api/timeline-schemas';
import type { TimelineStore } from '../timeline/timeline-store';
import { summarizeEvent } from './event-summary';
import type { JobRunner } from './jobs';

/** Distinct values the filter lists offer; an org with more shows the first ones. */
const MAX_FACET_VALUES = 1000;

/** One page of rows with summaries instead of full JSON, so a page stays small whatever the events hold. */
export function timelinePage(timeline: TimelineStore, query: z.output<typeof TimelineQuery>): TimelinePage {
  return summarizedPage(timeline, query, () => ({}));
}

/** The same page, each row also carrying its event as stored (`lemming timeline --json`). */
export function timelinePageWithEvents(
  timeline: TimelineStore,
  query: z.output<typeof TimelineQuery>,
): TimelinePage & { rows: { event: unknown }[] } {
  return summarizedPage(timeline, query, (json) => ({ event: JSON.parse(json) as unknown }));
}

function summarizedPage<Extra extends object>(
  timeline: TimelineStore,
  query: z.output<typeof TimelineQuery>,
  extra: (json: string) => Extra,
): TimelinePage & { rows: Extra[] } {
  const latestSeq = timeline.latestSeq();
  const page = timeline.page(query);
  return {
    rows: page.rows.map(({ json, ...row }) => ({
      ...row,
      summary: summarizeEvent(row.kind, json),
      bytes: json.length,
      ...extra(json),
    })),
    nextCursor: page.nextCursor,
    latestSeq,
    ...(page.total === undefined ? {} : { total: page.total }),
    ...(page.position === undefined ? {} : { position: page.position }),
  };
}

/** The bytes of an image or sound a tool gave, kept beside the timeline; not found when missing or changed since. */
export async function timelineAttachment(
  orgPath: string,
  sha256: string,
): Promise<IpcResult<{ sha256: string; base64: string }>> {
  const bytes = await readAttachment(orgPath, sha256);
  return bytes
    ? ok({ sha256, base64: bytes.toString('base64') })
    : fail('not_found', 'This image or sound is no longer kept, or was changed since it was kept.');
}

export function timelineEvent(timeline: TimelineStore, seq: number): IpcResult<TimelineEvent> {
  const row = timeline.get(seq);
  return row ? ok(row) : fail('not_found', `There is no event ${seq} in the timeline.`);
}

/**
 * The values the filters can take. Each distinct value is found by one index seek past the previous
 * one, so this costs a few steps per distinct kind or agent, not a scan of the events.
 */
export function timelineFacets(timeline: TimelineStore): TimelineFacets {
  const { db } = timeline;
  const ticks = db.prepare('SELECT min(tick) AS first, max(tick) AS last FROM event_ticks').get() as {
    first: number | null;
    last: number | null;
  };
  return {
    kinds: withMessageFamily(distinctValues(db, 'kind')),
    agents: distinctValues(db, 'agent'),
    firstTick: ticks.first,
    lastTick: ticks.last,
    latestSeq: timeline.latestSeq(),
  };
}

/** "message" lists every message, so it is offered whenever a message of any entry kind is there. */
function withMessageFamily(kinds: string[]): string[] {
  if (kinds.includes('message') || !kinds.some((kind) => entryKindOf(kind) !== null)) return kinds;
  return [...kinds, 'message'].sort();
}

function distinctValues(db: Database.Database, column: 'kind' | 'agent'): string[] {
  return db
    .prepare(
      `WITH RECURSIVE v(value) AS (
         SELECT (SELECT min(${column}) FROM events)
         UNION ALL
         SELECT (SELECT min(${column}) FROM events WHERE ${column} > v.value) FROM v WHERE v.value IS NOT NULL LIMIT ?
       )
       SELECT value FROM v WHERE value IS NOT NULL`,
    )
    .pluck()
    .all(MAX_FACET_VALUES + 1)
    .slice(0, MAX_FACET_VALUES) as string[];
}

/**
 * Exports to a file the user picked in main, or the CLI was given (the renderer never names a path to
 * write). With `jobs`, the export is a job: its progress is told and the person may cancel it, which
 * leaves no file and answers as a cancelled pick does (no path).
 */
export async function exportTimeline(
  timeline: TimelineStore,
  filter: z.output<typeof TimelineFilter>,
  pickFile: () => Promise<string | null>,
  jobs?: JobRunner,
): Promise<IpcResult<z.output<typeof TimelineExportResult>>> {
  const path = await pickFile();
  if (path === null) return ok({ path: null, exported: 0 });
  if (!jobs) return ok({ path, ...(await timeline.exportJsonl(path, filter)) });
  return jobs.run('timeline_export', async ({ signal, progress }) => {
    try {
      return ok({ path, ...(await timeline.exportJsonl(path, filter, { signal, progress })) });
    } catch (error) {
      if (signal.aborted) return ok({ path: null, exported: 0 });
      throw error;
    }
  });
}

/**
 * Imports a JSON Lines file the user picked in main or the CLI was given; every line kept exactly, bad
 * lines listed. With `jobs`, the import is a job: its progress is told (bytes read of the file's size),
 * and cancelled it stops, keeping the events imported so far (the answer counts them).
 */
export async function importTimeline(
  timeline: TimelineStore,
  pickFile: () => Promise<string | null>,
  jobs?: JobRunner,
): Promise<IpcResult<z.output<typeof TimelineImportResult>>> {
  const path = await pickFile();
  if (path === null) return ok({ path: null, imported: 0, skipped: [], skippedCount: 0 });
  if (!jobs) return ok({ path, ...(await timeline.importJsonl(path)) });
  return jobs.run('timeline_import', async (job) => ok({ path, ...(await timeline.importJsonl(path, job)) }));
}
