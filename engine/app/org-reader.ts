import { join } from 'node:path';
import { ok, type IpcResult } from '../api/result';
import { checkConfigText } from '../org/config-file';
import { readNextTick, TICK_FILE, TICK_SPEC } from '../org/tick-file';
import { PendingFiles } from '../run/pending-files';
import {
  damagedTimelineProblem,
  historyGapProblem,
  missingTimelineProblem,
  openProblem,
  TIMELINE_FILE,
  type TimelineProblem,
} from '../run/timeline-health';
import { openTimeline, type TimelineStore } from '../timeline/timeline-store';
import type { OrgContext } from './org-context';
import { invalidConfigFile } from './problems';

/**
 * What the use-cases that only look (status, inbox, timeline pages) read: the org folder and its
 * timeline, null when it has none yet. The app gives its open engine's timeline; the CLI opens the
 * timeline read-only, so looking never needs the run lock and never writes to the org.
 */
export interface OrgReader {
  readonly orgPath: string;
  readonly timeline: TimelineStore | null;
}

export const readerOf = (context: OrgContext): OrgReader => ({
  orgPath: context.orgPath,
  timeline: context.engine.timeline,
});

/**
 * The org's timeline opened read-only. Null when the org has no timeline yet, or when it cannot be
 * read: a killed run left it needing the recovery only a writer may do (its next run does it), or it
 * is damaged, written by a newer version or missing; `note` then says which, and what to do. A
 * timeline that tick.json is ahead of (a lost -wal) is read, with a note saying what is missing.
 */
export async function openTimelineToRead(
  org: string,
): Promise<{ timeline: TimelineStore | null; note: string | null }> {
  const opened = openTimeline(join(org, TIMELINE_FILE), { readonly: true });
  if (opened.ok) {
    const problem = await readableProblem(org, opened.timeline).catch((error: unknown) => {
      opened.timeline.close();
      throw error;
    });
    if (problem?.damaged) opened.timeline.close();
    return { timeline: problem?.damaged ? null : opened.timeline, note: problem && noteOf(problem) };
  }
  const nothingYet = opened.error.code === 'not_found' || opened.error.code === 'empty';
  const problem = nothingYet
    ? await missingTimelineProblem(org, { empty: opened.error.code === 'empty' })
    : openProblem(opened.error);
  if (problem) return { timeline: null, note: noteOf(problem) };
  if (nothingYet) return { timeline: null, note: null };
  return {
    timeline: null,
    note: `the timeline cannot be read without writing to it (${opened.error.message}); the next run recovers it`,
  };
}

const noteOf = (problem: TimelineProblem): string => `${problem.message}\n${problem.fix}`;

/** A damaged page met while reading (no quick_check: status stays quick), else a history gap. */
async function readableProblem(
  org: string,
  timeline: TimelineStore,
): Promise<(TimelineProblem & { damaged: boolean }) | null> {
  const damaged = damagedTimelineProblem(timeline, { checkPages: false });
  if (damaged) return { ...damaged, damaged: true };
  const gap = await historyGapProblem(org, timeline);
  return gap && { ...gap, damaged: false };
}

/**
 * The note on a history gap (tick.json ahead of the timeline) for a run about to start, which goes on
 * (LeMMing itself may have run those ticks); null when there is none or the timeline cannot be read.
 */
export async function historyGapNote(org: string): Promise<string | null> {
  const opened = openTimeline(join(org, TIMELINE_FILE), { readonly: true });
  if (!opened.ok) return null;
  try {
    const gap = await historyGapProblem(org, opened.timeline).catch(() => null);
    return gap && noteOf(gap);
  } finally {
    opened.timeline.close();
  }
}

/** The next tick: tick.json (or the copy a killed write left aside), unless the journal owes it a newer value. */
export async function nextTickToRead(reader: OrgReader): Promise<IpcResult<number>> {
  const owed = reader.timeline ? PendingFiles.owedContent(reader.timeline.db, TICK_FILE) : null;
  const checked = owed === null ? null : checkConfigText(owed, TICK_SPEC);
  if (checked?.ok) return ok(checked.value.current_tick);
  const read = await readNextTick(reader.orgPath);
  if (!read.ok) return invalidConfigFile(TICK_FILE, read.error);
  return ok(read.value.nextTick);
}
