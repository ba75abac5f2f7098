import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_LOCK_FILE } from '../org/org-lock';
import { FIRST_TICK, readNextTick, TICK_FILE } from '../org/tick-file';
import type { OpenDatabaseError } from '../timeline/open-database';
import { openTimeline, type TimelineStore } from '../timeline/timeline-store';

export const TIMELINE_FILE = '.lemming/timeline.sqlite';

/** Why the org's timeline cannot be used as it is, and what the person can do; nothing was changed. */
export interface TimelineProblem {
  message: string;
  fix: string;
}

const KEEP_A_COPY = 'Keep a copy of the .lemming folder first.';
const NEW_HISTORY =
  `To start a new history instead, move ${TIMELINE_FILE} (and its -wal and -shm files) out of the org ` +
  `and set current_tick in ${TICK_FILE} to 1.`;

/**
 * What opening the timeline refused, when no run can mend it: damaged, written by a newer version, or
 * not a timeline. Null for what the next run's recovery does (an older schema, a journal to replay).
 */
export function openProblem(error: OpenDatabaseError): TimelineProblem | null {
  switch (error.code) {
    case 'damaged':
    case 'not_a_database':
    case 'not_a_timeline':
    case 'migration_changed':
      return damaged();
    case 'newer_schema':
      return {
        message: `The org's history (${TIMELINE_FILE}) was written by a newer version of LeMMing Desktop; this version cannot read or add to it.`,
        fix: `Update LeMMing Desktop to run this org. ${KEEP_A_COPY} ${NEW_HISTORY}`,
      };
    default:
      return null;
  }
}

/**
 * Whether an opened timeline is damaged: `checkPages` runs quick_check (when opening for a run; 0.55 s
 * at 200k events), and the newest tick is read either way, which fails on a damaged page it meets.
 */
export function damagedTimelineProblem(
  timeline: TimelineStore,
  options: { checkPages: boolean },
): TimelineProblem | null {
  try {
    if (options.checkPages) {
      const found = timeline.db.pragma('quick_check', { simple: false }) as { quick_check: string }[];
      if (found.some((row) => row.quick_check !== 'ok')) return damaged();
    }
    newestCompletedTick(timeline);
    return null;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_CORRUPT')) return damaged();
    throw error;
  }
}

/**
 * tick.json ahead of the timeline's newest finished tick: the history of the ticks between is not in
 * the timeline. LeMMing itself running the org in between does this (and this app takes in its work),
 * and so does a lost -wal; only the person knows which, so this is said, and never refuses a run.
 */
export async function historyGapProblem(
  orgPath: string,
  timeline: TimelineStore,
): Promise<TimelineProblem | null> {
  const newestTick = newestCompletedTick(timeline);
  if (newestTick === null) return null;
  const next = await readNextTick(orgPath);
  if (!next.ok || next.value.nextTick <= newestTick + 1) return null;
  return {
    message:
      `The org's history (${TIMELINE_FILE}) ends at tick ${newestTick}, but ${TICK_FILE} says tick ` +
      `${next.value.nextTick} is next: ticks ${newestTick + 1} to ${next.value.nextTick - 1} are not in the history.`,
    fix:
      'If LeMMing itself ran those ticks, nothing is lost. If not, the history of those ticks was lost ' +
      `(its -wal file may have been deleted): ${KEEP_A_COPY} Restore ${TIMELINE_FILE} and ${TIMELINE_FILE}-wal ` +
      `from a backup, or set current_tick in ${TICK_FILE} to ${newestTick + 1} to go on from the history that is left.`,
  };
}

const newestCompletedTick = (timeline: TimelineStore): number | null =>
  timeline.db.prepare("SELECT max(tick) FROM events WHERE kind = 'tick_completed'").pluck().get() as
    number | null;

/**
 * Checks the timeline at `file` before a run opens it for writing, on a read-only connection, so a
 * timeline refused is left byte for byte as it was: missing, damaged (quick_check) or newer. Null also
 * when only a writer can tell (a journal to replay): the run's own open does that.
 */
export async function timelineProblemBeforeRun(
  orgPath: string,
  file: string,
): Promise<TimelineProblem | null> {
  if (!existsSync(file))
    return file === join(orgPath, TIMELINE_FILE) ? missingTimelineProblem(orgPath) : null;
  const opened = openTimeline(file, { readonly: true });
  if (!opened.ok)
    return opened.error.code === 'empty' && file === join(orgPath, TIMELINE_FILE)
      ? missingTimelineProblem(orgPath, { empty: true })
      : openProblem(opened.error);
  try {
    return damagedTimelineProblem(opened.timeline, { checkPages: true });
  } finally {
    opened.timeline.close();
  }
}

/**
 * The timeline file is missing (or `empty`: an SQLite file with nothing in it) although this app ran the
 * org (its run lock file is there) and tick.json says ticks ran: a run would otherwise start a new, empty
 * history without a word.
 */
export async function missingTimelineProblem(
  orgPath: string,
  { empty = false }: { empty?: boolean } = {},
): Promise<TimelineProblem | null> {
  if (!empty && existsSync(join(orgPath, TIMELINE_FILE))) return null;
  if (!existsSync(join(orgPath, RUN_LOCK_FILE))) return null;
  const next = await readNextTick(orgPath);
  if (!next.ok || next.value.nextTick <= FIRST_TICK) return null;
  return {
    message:
      `The org's history (${TIMELINE_FILE}) ${empty ? 'has nothing in it' : 'is missing'}, but ${TICK_FILE} says ${next.value.nextTick - FIRST_TICK} ` +
      'ticks ran.',
    fix: `Restore it from a backup. To start a new history instead, set current_tick in ${TICK_FILE} to 1.`,
  };
}

function damaged(): TimelineProblem {
  return {
    message: `The org's history (${TIMELINE_FILE}) is damaged: SQLite cannot read all of it.`,
    fix:
      `${KEEP_A_COPY} Restore ${TIMELINE_FILE} from a backup if you have one. ${NEW_HISTORY} ` +
      "The org's own files (agents, config) are not affected.",
  };
}
