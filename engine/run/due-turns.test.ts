import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dayAndTime,
  dueDuring,
  dueTurns,
  durationWords,
  missedTicks,
  nextDue,
  type DueCandidate,
} from './due-turns';

const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

function agent(name: string, schedule: DueCandidate['schedule'], switchedOff = false): DueCandidate {
  return { name, schedule, switchedOff };
}

const everyTick = { run_every_n_ticks: 1, phase_offset: 0 };
const now = new Date('2026-11-30T09:00:30');

describe('who is due at a tick', () => {
  it('runs due agents in LeMMing order and records a due switched-off agent as skipped', () => {
    const { groups, skipped } = dueTurns({
      tick: 4,
      now,
      clockSince: new Date(now.getTime() - 10_000),
      catchingUp: new Set(),
      agents: [
        agent('b', everyTick),
        agent('a', { run_every_n_ticks: 2, phase_offset: 1 }),
        agent('c', { run_every_n_ticks: 2, phase_offset: 0 }),
        agent('off', everyTick, true),
        agent('off-later', { run_every_n_ticks: 3, phase_offset: 0 }, true),
      ],
    });
    expect(groups.map((group) => group.agents.map((due) => due.name))).toEqual([['b', 'c']]);
    expect(skipped.map(({ agent, reason }) => `${agent.name} ${reason}`)).toEqual(['off switched_off']);
  });

  it('runs a clock-scheduled agent once when a due time passed since the last tick, and not by ticks', () => {
    const weekdays = agent('clerk', { ...everyTick, clock: '0 9 * * 1-5' });
    const at = (since: string) =>
      dueTurns({ tick: 7, now, clockSince: new Date(since), catchingUp: new Set(), agents: [weekdays] })
        .groups.length;
    expect(at('2026-11-30T08:59:50')).toBe(1);
    expect(at('2026-11-30T09:00:10')).toBe(0);
    // Closed since Friday: Saturday and Sunday had no due time, Monday 09:00 did: one turn.
    expect(at('2026-11-27T17:00:00')).toBe(1);
  });

  it('runs an agent owed a turn after missed ticks once, even off its slot', () => {
    const weekly = agent('weekly', { run_every_n_ticks: 7, phase_offset: 0 });
    const due = dueTurns({
      tick: 60,
      now,
      clockSince: now,
      catchingUp: new Set(['weekly']),
      agents: [weekly],
    });
    expect(due.groups.flatMap((group) => group.agents.map((one) => one.name))).toEqual(['weekly']);
  });
});

describe('missed ticks', () => {
  const lastTickAt = new Date('2026-11-30T08:00:00');
  it('counts the ticks that should have started between the last tick and now, the last being the one starting late', () => {
    const after = (ms: number) =>
      missedTicks({ nextTick: 41, lastTickAt, now: new Date(lastTickAt.getTime() + ms), intervalMs: 60_000 });
    expect(after(60_500)).toBeNull();
    expect(after(119_000)).toBeNull();
    expect(after(120_000)).toEqual({ from: 41, to: 41 });
    expect(after(10 * 60_000)).toEqual({ from: 41, to: 49 });
    // Ticks a second apart on a busy computer are late, not missed, until half a minute late.
    const fast = (ms: number) =>
      missedTicks({ nextTick: 41, lastTickAt, now: new Date(lastTickAt.getTime() + ms), intervalMs: 1_000 });
    expect(fast(5_000)).toBeNull();
    expect(fast(31_000)).toEqual({ from: 41, to: 70 });
    expect(missedTicks({ nextTick: 41, lastTickAt, now, intervalMs: 0 })).toBeNull();
    expect(missedTicks({ nextTick: 1, lastTickAt: null, now, intervalMs: 60_000 })).toBeNull();
  });

  it('finds who was due in them, leaving out clock schedules and switched-off agents', () => {
    const agents = [
      agent('every', everyTick),
      agent('fifth', { run_every_n_ticks: 5, phase_offset: 3 }),
      agent('tenth', { run_every_n_ticks: 10, phase_offset: 0 }),
      agent('clock', { ...everyTick, clock: '0 9 * * *' }),
      agent('off', everyTick, true),
    ];
    expect(dueDuring(agents, 41, 44).map((one) => one.name)).toEqual(['every', 'fifth']);
    expect(dueDuring(agents, 41, 50).map((one) => one.name)).toEqual(['every', 'fifth', 'tenth']);
  });
});

describe('next due time in words', () => {
  const pace = { nextTick: 10, now, intervalMs: 60_000 };
  it('counts ticks and says about how long', () => {
    expect(nextDue(agent('a', everyTick), pace)).toEqual({ tick: 10, at: null, words: 'at the next tick' });
    expect(nextDue(agent('b', { run_every_n_ticks: 5, phase_offset: 2 }), pace)).toMatchObject({
      tick: 12,
      words: 'in 3 ticks, about 2 minutes',
    });
    expect(
      nextDue(agent('b', { run_every_n_ticks: 5, phase_offset: 2 }), { ...pace, intervalMs: null }).words,
    ).toBe('in 3 ticks');
    expect(nextDue(agent('off', everyTick, true), pace).words).toBe('switched off');
  });

  it('says the day and time of a clock schedule', () => {
    expect(nextDue(agent('c', { ...everyTick, clock: '0 17 * * *' }), pace).words).toBe('today at 17:00');
    expect(nextDue(agent('c', { ...everyTick, clock: '0 9 * * *' }), pace).words).toBe('tomorrow at 09:00');
    expect(nextDue(agent('c', { ...everyTick, clock: '0 9 * * sat' }), pace).words).toBe(
      'on Saturday at 09:00',
    );
    expect(nextDue(agent('c', { ...everyTick, clock: '0 9 25 12 *' }), pace).words).toBe(
      'on 25 December at 09:00',
    );
    expect(nextDue(agent('c', { ...everyTick, clock: '0 0 31 2 *' }), pace).words).toBe(
      'never (by the clock (0 0 31 2 *))',
    );
  });

  it('rounds waits to words', () => {
    expect([40_000, 120_000, 3 * 3_600_000, 3 * 86_400_000].map(durationWords)).toEqual([
      '40 seconds',
      '2 minutes',
      '3 hours',
      '3 days',
    ]);
    expect(dayAndTime(new Date('2026-11-30T23:59:00'), now)).toBe('today at 23:59');
  });
});
