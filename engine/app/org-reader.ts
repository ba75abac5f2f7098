import { join } from 'node:path';
import { ok, type IpcResult } from '../api/result';
import { checkConfigText } from '../org/config-file';
import { readNextTick, TICK_FILE, TICK_SPEC } from '../org/tick-file';
import { PendingFiles } from '../run/pending-files';
import {
  missingTimelineProblem,
  openProblem,
  TIMELINE_FILE,
  timelineProblem,
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
    const problem = await timelineProblem(org, opened.timeline, { checkPages: false }).catch(
      (error: unknown) => {
        opened.timeline.close();
        throw error;
      },
    );
    return { timeline: opened.timeline, note: problem && noteOf(problem) };
  }
  const problem =
    opened.error.code === 'not_found' ? await missingTimelineProblem(org) : openProblem(opened.error);
  if (problem) return { timeline: null, note: noteOf(problem) };
  if (opened.error.code === 'not_found') return { timeline: null, note: null };
  return {
    timeline: null,
    note: `the timeline cannot be read without writing to it (${opened.error.message}); the next run recovers it`,
  };
}

const noteOf = (problem: TimelineProblem): string => `${problem.message}\n${problem.fix}`;

/** The next tick: tick.json (or the copy a killed write left aside), unless the journal owes it a newer value. */
export async function nextTickToRead(reader: OrgReader): Promise<IpcResult<number>> {
  const owed = reader.timeline ? PendingFiles.owedContent(reader.timeline.db, TICK_FILE) : null;
  const checked = owed === null ? null : checkConfigText(owed, TICK_SPEC);
  if (checked?.ok) return ok(checked.value.current_tick);
  const read = await readNextTick(reader.orgPath);
  if (!read.ok) return invalidConfigFile(TICK_FILE, read.error);
  return ok(read.value.nextTick);
}
