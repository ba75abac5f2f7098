import type { Result } from './result';

/**
 * Wall-clock schedules in cron's five fields (minute hour day-of-month month day-of-week), in the
 * computer's local time zone: numbers, `*`, ranges `a-b`, lists `a,b`, steps `*\/n` and `a-b/n`, and
 * month and day names (`jan`, `mon`). As in cron, when both day fields are restricted a day matching
 * either one is a due day. A due time that a change to summer time skips (02:30 on that night) falls
 * at the first minute after the gap; one that the change back repeats is due once.
 */
export interface ClockSchedule {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 is Sunday. */
  daysOfWeek: ReadonlySet<number>;
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

/** Reads a cron line; the error says which field is wrong and why, in words. */
export function parseClockSchedule(text: string): Result<ClockSchedule, string> {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === '')
    return {
      ok: false,
      error: `a clock schedule has five parts (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5"; "${text.trim()}" has ${parts[0] === '' ? 0 : parts.length}`,
    };
  const sets: Set<number>[] = [];
  for (const [index, part] of parts.entries()) {
    const field = FIELDS[index]!;
    const parsed = parseField(part, field);
    if (!parsed.ok) return { ok: false, error: `the ${field.name} part "${part}": ${parsed.error}` };
    sets.push(parsed.value);
  }
  const [minutes, hours, daysOfMonth, months, weekDays] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  if (weekDays.delete(7)) weekDays.add(0);
  return {
    ok: true,
    value: {
      minutes,
      hours,
      daysOfMonth,
      months,
      daysOfWeek: weekDays,
      dayOfMonthRestricted: parts[2] !== '*',
      dayOfWeekRestricted: parts[4] !== '*',
    },
  };
}

function parseField(text: string, field: FieldSpec): Result<Set<number>, string> {
  const values = new Set<number>();
  for (const item of text.toLowerCase().split(',')) {
    const [range, stepText, extra] = item.split('/');
    if (extra !== undefined || range === undefined || range === '')
      return { ok: false, error: 'not understood' };
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) < 1)
        return { ok: false, error: `the step after "/" must be a whole number of at least 1` };
      step = Number(stepText);
    }
    let low: number;
    let high: number;
    if (range === '*') {
      low = field.min;
      high = field.name === 'day of week' ? 6 : field.max;
    } else {
      const [first, last, more] = range.split('-');
      if (more !== undefined) return { ok: false, error: 'a range has one "-"' };
      const from = valueOf(first!, field);
      if (!from.ok) return from;
      low = from.value;
      if (last === undefined) high = stepText === undefined ? low : field.max;
      else {
        const to = valueOf(last, field);
        if (!to.ok) return to;
        high = to.value;
      }
      if (high < low) return { ok: false, error: `the range runs backwards (${first} is after ${last})` };
    }
    for (let value = low; value <= high; value += step) values.add(value);
  }
  return { ok: true, value: values };
}

function valueOf(text: string, field: FieldSpec): Result<number, string> {
  const named = field.names?.indexOf(text) ?? -1;
  if (named >= 0) return { ok: true, value: named + (field.name === 'month' ? 1 : 0) };
  if (!/^\d+$/.test(text))
    return {
      ok: false,
      error: field.names
        ? `"${text}" is not a number or a ${field.name === 'month' ? 'month' : 'day'} name (${field.names.slice(0, 3).join(', ')}, …)`
        : `"${text}" is not a whole number`,
    };
  const value = Number(text);
  if (value < field.min || value > field.max)
    return { ok: false, error: `${value} is outside ${field.min}–${field.max}` };
  return { ok: true, value };
}

function isDueDay(schedule: ClockSchedule, day: Date): boolean {
  if (!schedule.months.has(day.getMonth() + 1)) return false;
  const byMonthDay = schedule.daysOfMonth.has(day.getDate());
  const byWeekDay = schedule.daysOfWeek.has(day.getDay());
  if (schedule.dayOfMonthRestricted && schedule.dayOfWeekRestricted) return byMonthDay || byWeekDay;
  return byMonthDay && byWeekDay;
}

/** Four years and a day: long enough for 29 February, and an end for a schedule that never comes (31 February). */
const SEARCH_DAYS = 4 * 366 + 1;

/** The first due time strictly after `after`; null when the schedule never comes (`0 0 31 2 *`). */
export function nextClockTime(schedule: ClockSchedule, after: Date): Date | null {
  const hours = [...schedule.hours].sort((a, b) => a - b);
  const minutes = [...schedule.minutes].sort((a, b) => a - b);
  const start = new Date(after.getFullYear(), after.getMonth(), after.getDate());
  for (let offset = 0; offset < SEARCH_DAYS; offset += 1) {
    const day = new Date(start.getFullYear(), start.getMonth(), start.getDate() + offset);
    if (!isDueDay(schedule, day)) continue;
    let earliest: Date | null = null;
    for (const hour of hours)
      for (const minute of minutes) {
        // new Date() moves a time that summer time skips to the first one after the gap, and takes the first of a repeated hour.
        const candidate = new Date(day.getFullYear(), day.getMonth(), day.getDate(), hour, minute);
        if (candidate > after && (earliest === null || candidate < earliest)) earliest = candidate;
      }
    if (earliest) return earliest;
  }
  return null;
}

/** Whether a due time falls in (since, until]: the agent runs once at a tick however many it missed. */
export function isClockDue(schedule: ClockSchedule, since: Date, until: Date): boolean {
  const next = nextClockTime(schedule, since);
  return next !== null && next <= until;
}

/** The plain choices the resume form offers, and the cron line each becomes. */
export type ClockChoice =
  | { kind: 'daily'; time: string }
  | { kind: 'weekdays'; time: string }
  | { kind: 'every_hours'; hours: number }
  | { kind: 'cron'; cron: string };

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** The cron line of a plain choice; an error in words when the time or the number is not one. */
export function cronOfChoice(choice: ClockChoice): Result<string, string> {
  if (choice.kind === 'cron') {
    const parsed = parseClockSchedule(choice.cron);
    return parsed.ok ? { ok: true, value: choice.cron.trim() } : parsed;
  }
  if (choice.kind === 'every_hours') {
    if (!Number.isInteger(choice.hours) || choice.hours < 1 || choice.hours > 23)
      return { ok: false, error: 'the hours between turns must be a whole number from 1 to 23' };
    return { ok: true, value: `0 */${choice.hours} * * *` };
  }
  const time = TIME.exec(choice.time.trim());
  if (!time) return { ok: false, error: `"${choice.time}" is not a time of day like 09:00` };
  const days = choice.kind === 'weekdays' ? '1-5' : '*';
  return { ok: true, value: `${Number(time[2])} ${Number(time[1])} * * ${days}` };
}

/** The plain choice a cron line is, for the form and for words; `cron` when it is none of them. */
export function choiceOfCron(cron: string): ClockChoice {
  const text = cron.trim();
  const at = /^(\d{1,2}) (\d{1,2}) \* \* (\*|1-5)$/.exec(text);
  if (at && Number(at[1]) <= 59 && Number(at[2]) <= 23) {
    const time = `${at[2]!.padStart(2, '0')}:${at[1]!.padStart(2, '0')}`;
    return at[3] === '*' ? { kind: 'daily', time } : { kind: 'weekdays', time };
  }
  const every = /^0 \*\/(\d{1,2}) \* \* \*$/.exec(text);
  if (every && Number(every[1]) >= 1 && Number(every[1]) <= 23)
    return { kind: 'every_hours', hours: Number(every[1]) };
  return { kind: 'cron', cron: text };
}

/** A clock schedule in words: "every weekday at 09:00", "every 2 hours", "by the clock (0 9 1 * *)". */
export function clockScheduleWords(cron: string): string {
  const choice = choiceOfCron(cron);
  switch (choice.kind) {
    case 'daily':
      return `every day at ${choice.time}`;
    case 'weekdays':
      return `every weekday at ${choice.time}`;
    case 'every_hours':
      return choice.hours === 1 ? 'every hour' : `every ${choice.hours} hours`;
    case 'cron':
      return `by the clock (${choice.cron})`;
  }
}
