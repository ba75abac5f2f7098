import type { NextDue, SkipReason } from '../api/schedule-schemas';
import { invalidAgentLabel } from '../org/discover';
import type { Resume } from '../org/resume-schema';
import {
  clockScheduleWords,
  isClockDue,
  nextClockTime,
  parseClockSchedule,
  type ClockSchedule,
} from '../api/clock-schedule';
import {
  compareCodePoints,
  firePoint,
  firesAt,
  nextFiringTicks,
  periodOf,
  phaseOf,
  floorMod,
  type FirePointGroup,
  type ScheduleFields,
} from '../org/schedule';

/** What deciding who is due reads of an agent: its name, its schedule (with a clock line or not) and its switch. */
export interface DueCandidate {
  name: string;
  schedule: ScheduleFields & { clock?: string | undefined };
  switchedOff: boolean;
}

export interface DueInput<T extends DueCandidate> {
  tick: number;
  now: Date;
  /** Clock schedules are due for due times in (clockSince, now]: the last tick's time, or `now` less a minute before any tick. */
  clockSince: Date;
  agents: readonly T[];
  /** Agents owed one turn for ticks that did not run (the org catches up once). */
  catchingUp: ReadonlySet<string>;
}

export interface DueTurns<T extends DueCandidate> {
  /** The agents that take their turn, in LeMMing's order, split by fire point. */
  groups: FirePointGroup<T>[];
  /** The agents that were due and will not take it, and why. */
  skipped: { agent: T; reason: SkipReason }[];
}

/**
 * Who is due at a tick and who of them does not run (docs/ARCHITECTURE.md, “Due turns”): an agent with
 * a clock schedule is due when one of its due times passed since the last tick; any other by LeMMing's
 * tick rule, or because it is owed a turn after missed ticks. A switched-off agent is never run.
 */
export function dueTurns<T extends DueCandidate>(input: DueInput<T>): DueTurns<T> {
  const due = input.agents.filter((agent) => isDue(agent, input));
  const skipped = due.flatMap((agent) =>
    agent.switchedOff ? [{ agent, reason: 'switched_off' as const }] : [],
  );
  const running = due
    .filter((agent) => !agent.switchedOff)
    .map((agent) => ({ agent, point: firePoint(agent.schedule) }))
    .sort((a, b) => a.point - b.point || compareCodePoints(a.agent.name, b.agent.name));
  const groups: FirePointGroup<T>[] = [];
  for (const { agent, point } of running) {
    const last = groups[groups.length - 1];
    if (last && last.firePoint === point) last.agents.push(agent);
    else groups.push({ firePoint: point, agents: [agent] });
  }
  return { groups, skipped };
}

function isDue(agent: DueCandidate, input: DueInput<DueCandidate>): boolean {
  const clock = clockOf(agent);
  if (clock) return isClockDue(clock, input.clockSince, input.now);
  return firesAt(input.tick, agent.schedule) || input.catchingUp.has(agent.name);
}

function clockOf(agent: DueCandidate): ClockSchedule | null {
  if (agent.schedule.clock === undefined) return null;
  const parsed = parseClockSchedule(agent.schedule.clock);
  return parsed.ok ? parsed.value : null;
}

/**
 * A tick that starts this much later than its interval is late, not missed: reading the org before it
 * and a busy computer take time. An app closed or a computer asleep is away for longer.
 */
export const LATE_NOT_MISSED_MS = 30_000;

/**
 * The ticks that did not run before `nextTick`: those that were due one interval after another since
 * the last tick and before now, the last of them being the tick now starting late. Null when none was
 * missed (the tick is less than LATE_NOT_MISSED_MS late), or the run has no interval (ticks one after
 * another, or one step).
 */
export function missedTicks(input: {
  nextTick: number;
  lastTickAt: Date | null;
  now: Date;
  intervalMs: number;
}): { from: number; to: number } | null {
  if (input.lastTickAt === null || input.intervalMs <= 0) return null;
  const gap = input.now.getTime() - input.lastTickAt.getTime();
  if (gap - input.intervalMs < LATE_NOT_MISSED_MS) return null;
  const count = Math.floor(gap / input.intervalMs) - 1;
  return count >= 1 ? { from: input.nextTick, to: input.nextTick + count - 1 } : null;
}

/** The agents (tick schedules only) that would have been due at one of the ticks `from`..`to`. */
export function dueDuring<T extends DueCandidate>(agents: readonly T[], from: number, to: number): T[] {
  return agents.filter((agent) => {
    if (agent.schedule.clock !== undefined || agent.switchedOff) return false;
    const period = periodOf(agent.schedule);
    const first = from + floorMod(phaseOf(agent.schedule) - from, period);
    return first <= to;
  });
}

/** The tick-numbering facts next-due words are made from. */
export interface TickPace {
  /** The tick the next `runTick` runs. */
  nextTick: number;
  now: Date;
  /** Time between ticks of a run; null when unknown (no run going, no base_turn_seconds). */
  intervalMs: number | null;
}

/** When an agent next takes its turn, in words: "at the next tick", "in 3 ticks, about 2 minutes", "today at 09:00". */
export function nextDue(agent: DueCandidate, pace: TickPace): NextDue {
  if (agent.switchedOff) return { tick: null, at: null, words: 'switched off' };
  if (agent.schedule.clock !== undefined) {
    const clock = clockOf(agent);
    const next = clock ? nextClockTime(clock, pace.now) : null;
    if (!next) return { tick: null, at: null, words: `never (${clockScheduleWords(agent.schedule.clock)})` };
    return { tick: null, at: next.toISOString(), words: dayAndTime(next, pace.now) };
  }
  const tick = nextFiringTicks(agent.schedule, pace.nextTick, 1)[0]!;
  const ticks = tick - pace.nextTick + 1;
  const inTicks = ticks === 1 ? 'at the next tick' : `in ${ticks} ticks`;
  if (pace.intervalMs === null || pace.intervalMs <= 0 || ticks === 1)
    return { tick, at: null, words: inTicks };
  const waitMs = (ticks - 1) * pace.intervalMs;
  return {
    tick,
    at: new Date(pace.now.getTime() + waitMs).toISOString(),
    words: `${inTicks}, about ${durationWords(waitMs)}`,
  };
}

/** A wait in round words: "40 seconds", "2 minutes", "3 hours", "2 days". */
export function durationWords(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  const unit = (count: number, name: string) => `${count} ${name}${count === 1 ? '' : 's'}`;
  if (seconds < 60) return unit(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return unit(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 36) return unit(hours, 'hour');
  return unit(Math.round(hours / 24), 'day');
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "today at 09:00", "tomorrow at 09:00", "on Monday at 09:00" (within a week), else "on 3 December at 09:00". */
export function dayAndTime(when: Date, now: Date): string {
  const time = `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
  const days = Math.round(
    (new Date(when.getFullYear(), when.getMonth(), when.getDate()).getTime() -
      new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime()) /
      86_400_000,
  );
  if (days === 0) return `today at ${time}`;
  if (days === 1) return `tomorrow at ${time}`;
  if (days < 7) return `on ${WEEKDAYS[when.getDay()]} at ${time}`;
  return `on ${when.getDate()} ${MONTHS[when.getMonth()]} at ${time}`;
}

/** An agent as deciding who is due reads it, its other fields kept for running its turn. */
export function dueCandidate<T extends { resume: Resume }>(agent: T): T & DueCandidate {
  return {
    ...agent,
    name: agent.resume.name,
    schedule: agent.resume.schedule,
    switchedOff: agent.resume.switched_off === true,
  };
}

/** Why an agent whose resume cannot be used did not run, in words, with the file and its first problem. */
export function invalidResumeSkip(agent: {
  folder: string;
  name: string;
  resumeFile: string;
  problems: readonly { message: string }[];
  readError?: string;
}): string {
  const who = invalidAgentLabel(agent);
  if (agent.readError)
    return `${who} did not run: its ${agent.resumeFile} could not be read (${agent.readError}); it runs again once the file can be read.`;
  const first = agent.problems[0]?.message;
  return `${who} did not run: its ${agent.resumeFile} cannot be used${first ? ` (${first})` : ''}.`;
}

/** Milliseconds until the next due time of any switched-on agent's clock schedule; null when none has one. */
export function untilNextClockDue(agents: readonly DueCandidate[], now: Date): number | null {
  const times = agents.flatMap((agent) => {
    const clock = agent.switchedOff ? null : clockOf(agent);
    const next = clock ? nextClockTime(clock, now) : null;
    return next ? [next.getTime() - now.getTime()] : [];
  });
  return times.length === 0 ? null : Math.min(...times);
}
