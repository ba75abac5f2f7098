import { z } from 'zod';

export const MAX_TIMELINE_PAGE = 1000;

/** Which events to show. Empty lists mean "no filter" on that field. */
export const TimelineFilter = z
  .object({
    agents: z.array(z.string().max(256)).max(1000).optional(),
    kinds: z.array(z.string().max(256)).max(1000).optional(),
    tickFrom: z.int().optional(),
    tickTo: z.int().optional(),
    /** Words that must all appear in the event's text; a word ending in `*` is a prefix. */
    text: z.string().max(1000).optional(),
    runId: z.string().max(256).optional(),
  })
  .strict();
export type TimelineFilter = z.infer<typeof TimelineFilter>;

export const TimelineQuery = TimelineFilter.extend({
  /** `desc` (the default) pages from the newest event back; `asc` follows the live tail. */
  direction: z.enum(['desc', 'asc']).optional(),
  /** Continue after this seq: the previous page's `nextCursor`, or the last seq seen for the tail. */
  cursor: z.int().nonnegative().nullish(),
  limit: z.int().min(1).max(MAX_TIMELINE_PAGE).optional(),
  /**
   * `desc` only: start at the event this many rows below the newest matching one (a scrollbar dragged
   * anywhere); replaces `cursor`. Within `limit` rows of the end (or past it), the page is the last
   * `limit` rows, and its `position` says where it starts.
   */
  position: z.int().nonnegative().optional(),
  /** Also answer how many events match (`total`) and where the page's first row is (`position`). */
  withTotal: z.boolean().optional(),
}).strict();
export type TimelineQuery = z.infer<typeof TimelineQuery>;

/** One row of the list: the indexed columns and a short summary; the full event comes from timeline.get. */
export const TimelineRowSummary = z.object({
  seq: z.int().positive(),
  kind: z.string(),
  agent: z.string().nullable(),
  tick: z.int().nullable(),
  runId: z.string().nullable(),
  time: z.string().nullable(),
  /** One line for the list, at most a few hundred characters. */
  summary: z.string(),
  /** Size of the event's JSON text, so the view can warn before showing a huge one. */
  bytes: z.int().nonnegative(),
});
export type TimelineRowSummary = z.infer<typeof TimelineRowSummary>;

export const TimelinePage = z.object({
  rows: z.array(TimelineRowSummary),
  nextCursor: z.int().nullable(),
  /** The newest seq when the page was read. */
  latestSeq: z.int().nonnegative(),
  /** With `withTotal`: how many events match the filters. */
  total: z.int().nonnegative().optional(),
  /** With `withTotal` on a `desc` page: how many matching events are newer than its first row. */
  position: z.int().nonnegative().optional(),
});
export type TimelinePage = z.infer<typeof TimelinePage>;

/** One event in full: its JSON text exactly as stored (unknown kinds and fields included). */
export const TimelineEvent = TimelineRowSummary.omit({ summary: true, bytes: true }).extend({
  json: z.string(),
});
export type TimelineEvent = z.infer<typeof TimelineEvent>;

export const TimelineFacets = z.object({
  kinds: z.array(z.string()),
  agents: z.array(z.string()),
  firstTick: z.int().nullable(),
  lastTick: z.int().nullable(),
  latestSeq: z.int().nonnegative(),
});
export type TimelineFacets = z.infer<typeof TimelineFacets>;

export const TimelineExportResult = z.object({
  /** Where the JSON Lines file was written; null when the person cancelled (the save dialog, or the export as it ran: no file is left). */
  path: z.string().nullable(),
  exported: z.int().nonnegative(),
});

export const TimelineImportResult = z.object({
  /** The JSON Lines file read; null when the user cancelled. */
  path: z.string().nullable(),
  imported: z.int().nonnegative(),
  /** Lines that were not imported and why (the first thousand). */
  skipped: z.array(z.object({ line: z.int().positive(), reason: z.string() })),
  skippedCount: z.int().nonnegative(),
});
