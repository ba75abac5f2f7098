import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  choiceOfCron,
  clockScheduleWords,
  cronOfChoice,
  isClockDue,
  nextClockTime,
  parseClockSchedule,
  type ClockSchedule,
} from '../../engine/api/clock-schedule';

const env = process.env;
const zoneBefore = env.TZ;
beforeAll(() => {
  // Berlin changes to summer time at 02:00 on 29 March 2026 and back at 03:00 on 25 October 2026.
  env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zoneBefore === undefined) delete env.TZ;
  else env.TZ = zoneBefore;
});

function schedule(cron: string): ClockSchedule {
  const parsed = parseClockSchedule(cron);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

const local = (text: string) => new Date(text);
const wall = (date: Date | null) =>
  date === null
    ? null
    : `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')} ${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

describe('clock schedules', () => {
  it('fires every weekday at 09:00, skipping the weekend', () => {
    const weekdays = schedule('0 9 * * 1-5');
    // Friday 27 November 2026, 10:00: next is Monday.
    expect(wall(nextClockTime(weekdays, local('2026-11-27T10:00:00')))).toBe('2026-11-30 09:00');
    expect(wall(nextClockTime(weekdays, local('2026-11-30T08:59:00')))).toBe('2026-11-30 09:00');
    expect(wall(nextClockTime(weekdays, local('2026-11-30T09:00:00')))).toBe('2026-12-01 09:00');
  });

  it('reads lists, ranges with steps, names and 7 as Sunday', () => {
    expect(wall(nextClockTime(schedule('15,45 */6 * * *'), local('2026-11-28T06:20:00')))).toBe(
      '2026-11-28 06:45',
    );
    expect(wall(nextClockTime(schedule('0 8-18/5 * * *'), local('2026-11-28T13:01:00')))).toBe(
      '2026-11-28 18:00',
    );
    expect(wall(nextClockTime(schedule('30 7 * jan sun'), local('2026-11-28T00:00:00')))).toBe(
      '2027-01-03 07:30',
    );
    expect(wall(nextClockTime(schedule('0 12 * * 7'), local('2026-11-28T00:00:00')))).toBe(
      '2026-11-29 12:00',
    );
  });

  it('takes a day matching either day field when both are restricted, as cron does', () => {
    // The 1st of the month or any Monday.
    expect(wall(nextClockTime(schedule('0 0 1 * mon'), local('2026-11-28T00:00:00')))).toBe(
      '2026-11-30 00:00',
    );
    expect(wall(nextClockTime(schedule('0 0 1 * mon'), local('2026-11-30T00:00:00')))).toBe(
      '2026-12-01 00:00',
    );
  });

  it('gives null for a schedule that never comes', () => {
    expect(nextClockTime(schedule('0 0 31 2 *'), local('2026-01-01T00:00:00'))).toBeNull();
  });

  it('runs a time the change to summer time skips at the first minute after the gap, and a repeated hour once', () => {
    // 02:30 does not exist on 29 March 2026 in Berlin.
    expect(wall(nextClockTime(schedule('30 2 * * *'), local('2026-03-29T00:00:00')))).toBe(
      '2026-03-29 03:30',
    );
    // 02:30 happens twice on 25 October 2026: due once, then the next day.
    const first = nextClockTime(schedule('30 2 * * *'), local('2026-10-25T00:00:00'))!;
    expect(wall(first)).toBe('2026-10-25 02:30');
    expect(wall(nextClockTime(schedule('30 2 * * *'), first))).toBe('2026-10-26 02:30');
  });

  it('is due once for any number of due times missed in between', () => {
    const hourly = schedule('0 * * * *');
    expect(isClockDue(hourly, local('2026-11-28T08:00:00'), local('2026-11-28T08:59:59'))).toBe(false);
    expect(isClockDue(hourly, local('2026-11-28T08:00:00'), local('2026-11-28T09:00:00'))).toBe(true);
    expect(isClockDue(hourly, local('2026-11-27T08:00:00'), local('2026-11-28T12:30:00'))).toBe(true);
  });

  it('says in words which part is wrong', () => {
    const errors = [
      '0 9 * *',
      '61 9 * * *',
      '0 9 * * fri-mon',
      '0 9 * * funday',
      '*/0 * * * *',
      '0 9 1-2-3 * *',
    ].map((cron) => {
      const parsed = parseClockSchedule(cron);
      return parsed.ok ? null : parsed.error;
    });
    expect(errors).toEqual([
      'a clock schedule has five parts (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5"; "0 9 * *" has 4',
      'the minute part "61": 61 is outside 0–59',
      'the day of week part "fri-mon": the range runs backwards (fri is after mon)',
      'the day of week part "funday": "funday" is not a number or a day name (sun, mon, tue, …)',
      'the minute part "*/0": the step after "/" must be a whole number of at least 1',
      'the day of month part "1-2-3": a range has one "-"',
    ]);
  });

  it('turns the plain choices into cron lines and back into words', () => {
    expect(cronOfChoice({ kind: 'weekdays', time: '09:00' })).toEqual({ ok: true, value: '0 9 * * 1-5' });
    expect(cronOfChoice({ kind: 'daily', time: '7:30' })).toEqual({ ok: true, value: '30 7 * * *' });
    expect(cronOfChoice({ kind: 'every_hours', hours: 2 })).toEqual({ ok: true, value: '0 */2 * * *' });
    expect(cronOfChoice({ kind: 'daily', time: '25:00' })).toEqual({
      ok: false,
      error: '"25:00" is not a time of day like 09:00',
    });
    expect(choiceOfCron('30 7 * * *')).toEqual({ kind: 'daily', time: '07:30' });
    expect(clockScheduleWords('0 9 * * 1-5')).toBe('every weekday at 09:00');
    expect(clockScheduleWords('0 */2 * * *')).toBe('every 2 hours');
    expect(clockScheduleWords('0 9 1 * *')).toBe('by the clock (0 9 1 * *)');
  });
});
