import { z } from 'zod';

/**
 * An event as the engine (or an imported JSON Lines file) produces it. Only `kind` is required; the
 * conventional keys are indexed when present. Every other key, at any depth, is kept as it was.
 */
export const TimelineEventInput = z.looseObject({
  kind: z.string().min(1),
  /** ISO 8601 time the event happened. */
  time: z.string().nullish(),
  /** Id of the run the event belongs to. */
  run: z.string().nullish(),
  tick: z.int().nullish(),
  agent: z.string().nullish(),
  /** Id of the agent turn the event belongs to. */
  turn: z.string().nullish(),
});
export type TimelineEventInput = z.infer<typeof TimelineEventInput>;

/** One stored event: its indexed columns and its JSON text exactly as it was written. */
export const TimelineRow = z.object({
  /** Position in the timeline; increases with every event and is the paging cursor. */
  seq: z.int().positive(),
  kind: z.string(),
  agent: z.string().nullable(),
  tick: z.int().nullable(),
  runId: z.string().nullable(),
  time: z.string().nullable(),
  json: z.string(),
});
export type TimelineRow = z.infer<typeof TimelineRow>;

export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 200;

/** Which events to show. Empty lists mean "no filter" on that field. */
export const TimelineFilter = z.object({
  agents: z.array(z.string()).optional(),
  kinds: z.array(z.string()).optional(),
  tickFrom: z.int().optional(),
  tickTo: z.int().optional(),
  /** Words that must all appear in the event's string values; a word ending in `*` is a prefix. */
  text: z.string().max(1000).optional(),
  runId: z.string().optional(),
});
export type TimelineFilter = z.infer<typeof TimelineFilter>;

/** A filtered, keyset-paged view of the timeline. */
export const TimelineQuery = TimelineFilter.extend({
  /** `desc` (the default) pages from the newest event back. */
  direction: z.enum(['desc', 'asc']).optional(),
  /** Continue after this seq: the `nextCursor` of the previous page. */
  cursor: z.int().nullish(),
  limit: z.int().min(1).max(MAX_PAGE_LIMIT).optional(),
});
export type TimelineQuery = z.infer<typeof TimelineQuery>;

export const TimelinePage = z.object({
  rows: z.array(TimelineRow),
  /** Cursor for the next page, or null when this page reached the end. */
  nextCursor: z.int().nullable(),
});
export type TimelinePage = z.infer<typeof TimelinePage>;
