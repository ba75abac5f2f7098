import { join } from 'node:path';
import { checkConfigText } from '../org/config-file';
import { readNextTick, TICK_FILE, TICK_SPEC } from '../org/tick-file';
import { PendingFiles } from '../run/pending-files';
import { openTimeline, type TimelineStore } from '../timeline/timeline-store';
import { CliFailure } from './cli-io';

/**
 * The org's timeline opened read-only, for commands that only look (status, inbox): they never need
 * the run lock and never write to the org. Null when the org has no timeline yet, or when a killed
 * run left it needing the recovery only a writer may do (its next run does it).
 */
export function openTimelineToRead(org: string): { timeline: TimelineStore | null; note: string | null } {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  if (opened.ok) return { timeline: opened.timeline, note: null };
  if (opened.error.code === 'not_found') return { timeline: null, note: null };
  return {
    timeline: null,
    note: `the timeline cannot be read without writing to it (${opened.error.message}); the next run recovers it`,
  };
}

/** The next tick: tick.json (or the copy a killed write left aside), unless the journal owes it a newer value. */
export async function nextTickToRead(org: string, timeline: TimelineStore | null): Promise<number> {
  const owed = timeline ? PendingFiles.owedContent(timeline.db, TICK_FILE) : null;
  const checked = owed === null ? null : checkConfigText(owed, TICK_SPEC);
  if (checked?.ok) return checked.value.current_tick;
  const read = await readNextTick(org);
  if (!read.ok)
    throw new CliFailure(read.problems.map((problem) => `${problem.file}: ${problem.message}`).join('\n'));
  return read.nextTick;
}
