import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  firePoint,
  firesAt,
  firingOrder,
  groupByFirePoint,
  nextFiringTicks,
  type Scheduled,
  type ScheduleFields,
} from './schedule';
import { seededRandom } from '../run/test-support/seeded-random';

/**
 * A line-by-line transliteration of LeMMing's engine.py (HEAD 9b93040), kept independent of the module
 * under test: Python's `%` is spelled with Math.floor, and Python's string order is built from code
 * point arrays.
 *
 *   def compute_fire_point(agent):
 *       n = agent.schedule.run_every_n_ticks or 1
 *       if n == 1: return 0.0
 *       offset = agent.schedule.phase_offset % n
 *       return ((-offset) % n) / n
 *   def should_run(agent, tick):
 *       n = agent.schedule.run_every_n_ticks or 1
 *       offset = agent.schedule.phase_offset or 0
 *       return (tick % n) == (offset % n)
 *   firing.sort(key=lambda a: (compute_fire_point(a), a.name))
 */
const python = {
  mod: (a: number, n: number) => a - n * Math.floor(a / n),
  computeFirePoint(schedule: ScheduleFields): number {
    const n = schedule.run_every_n_ticks || 1;
    if (n === 1) return 0;
    const offset = python.mod(schedule.phase_offset ?? 0, n);
    return python.mod(-offset, n) / n;
  },
  shouldRun(schedule: ScheduleFields, tick: number): boolean {
    const n = schedule.run_every_n_ticks || 1;
    const offset = schedule.phase_offset || 0;
    return python.mod(tick, n) === python.mod(offset, n);
  },
  strLess(a: string, b: string): number {
    const left = Array.from(a, (c) => c.codePointAt(0) ?? 0);
    const right = Array.from(b, (c) => c.codePointAt(0) ?? 0);
    for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
      if (left[i] !== right[i]) return (left[i] ?? 0) - (right[i] ?? 0);
    }
    return left.length - right.length;
  },
  firing(agents: Scheduled[], tick: number): string[] {
    return agents
      .filter((agent) => python.shouldRun(agent.schedule, tick))
      .sort((a, b) => {
        const byPoint = python.computeFirePoint(a.schedule) - python.computeFirePoint(b.schedule);
        return byPoint !== 0 ? byPoint : python.strLess(a.name, b.name);
      })
      .map((agent) => agent.name);
  },
};

const NAME_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';

function randomOrg(random: () => number): Scheduled[] {
  const integer = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const names = new Set<string>();
  const size = integer(1, 14);
  while (names.size < size) {
    // Short names from a tiny alphabet collide on prefixes ("a", "a_", "aB"), which is where ordering bugs hide.
    const alphabet = random() < 0.5 ? 'aAbB_-1' : NAME_CHARACTERS;
    names.add(
      Array.from({ length: integer(1, 4) }, () => alphabet[integer(0, alphabet.length - 1)]).join(''),
    );
  }
  return [...names].map((name) => ({
    name,
    schedule: { run_every_n_ticks: random() < 0.2 ? 1 : integer(1, 12), phase_offset: integer(-30, 30) },
  }));
}

describe('firesAt', () => {
  it('uses the code formula t mod N == P mod N, not the docs formula (t + P) mod N == 0', () => {
    const schedule = { run_every_n_ticks: 3, phase_offset: 1 };
    expect(nextFiringTicks(schedule, 1, 3)).toEqual([1, 4, 7]);
    expect(firesAt(2, schedule)).toBe(false);
  });

  it('floors the modulo so a negative phase offset works (N=4, P=-1 fires at 3, 7, 11)', () => {
    const schedule = { run_every_n_ticks: 4, phase_offset: -1 };
    expect([...Array(12).keys()].map((i) => i + 1).filter((t) => firesAt(t, schedule))).toEqual([3, 7, 11]);
  });

  it('treats N of 0, null or absent as 1, and a missing phase offset as 0', () => {
    for (const schedule of [{ run_every_n_ticks: 0 }, { run_every_n_ticks: null }, {}]) {
      expect([1, 2, 3, 17].every((tick) => firesAt(tick, schedule))).toBe(true);
      expect(firePoint(schedule)).toBe(0);
    }
    expect(firesAt(2, { run_every_n_ticks: 2, phase_offset: null })).toBe(true);
    expect(firesAt(3, { run_every_n_ticks: 2 })).toBe(false);
  });
});

describe('firePoint', () => {
  it('spreads N=4 phases across the tick: P 0, 1, 2, 3 run at 0, 0.75, 0.5, 0.25', () => {
    expect([0, 1, 2, 3].map((phase) => firePoint({ run_every_n_ticks: 4, phase_offset: phase }))).toEqual([
      0, 0.75, 0.5, 0.25,
    ]);
  });

  it('is 0 whenever N is 1, whatever the phase', () => {
    expect(firePoint({ run_every_n_ticks: 1, phase_offset: -7 })).toBe(0);
  });
});

describe('compareCodePoints', () => {
  it('orders like Python: uppercase before "_" before lowercase, prefixes first', () => {
    const names = ['b', 'B', '_a', 'a_', 'A1', 'a-', 'a', 'ab', 'Z'];
    expect([...names].sort(compareCodePoints)).toEqual(['A1', 'B', 'Z', '_a', 'a', 'a-', 'a_', 'ab', 'b']);
  });

  it('orders characters above U+FFFF after U+FF5E, as Python does and UTF-16 comparison does not', () => {
    expect(compareCodePoints('\u{1F600}', '\uFF5E')).toBeGreaterThan(0);
    expect('\u{1F600}' < '\uFF5E').toBe(true);
  });

  it('is also UTF-8 byte order, as codex-rs sorts a listed folder', () => {
    const sorted = ['b', 'README', '😀', '\uFFFD', 'a'].sort(compareCodePoints);
    expect(sorted).toEqual(['README', 'a', 'b', '\uFFFD', '😀']);
  });
});

describe('firingOrder', () => {
  it('runs agents by fire point, then by name', () => {
    const agents = [
      { name: 'zed', schedule: { run_every_n_ticks: 1, phase_offset: 0 } },
      { name: 'late', schedule: { run_every_n_ticks: 4, phase_offset: 1 } },
      { name: 'Alpha', schedule: { run_every_n_ticks: 1, phase_offset: 0 } },
      { name: 'mid', schedule: { run_every_n_ticks: 2, phase_offset: 1 } },
      { name: 'asleep', schedule: { run_every_n_ticks: 4, phase_offset: 2 } },
    ];
    expect(firingOrder(5, agents).map((agent) => agent.name)).toEqual(['Alpha', 'zed', 'mid', 'late']);
  });

  it('matches the transliterated LeMMing scheduler for random orgs, ticks 1..200', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = seededRandom(seed);
      const agents = randomOrg(random);
      for (let tick = 1; tick <= 200; tick += 1) {
        const ours = firingOrder(tick, agents).map((agent) => agent.name);
        const theirs = python.firing(agents, tick);
        if (ours.join('|') !== theirs.join('|')) {
          expect({ seed, tick, ours }).toEqual({ seed, tick, ours: theirs });
        }
      }
    }
  });
});

describe('groupByFirePoint', () => {
  it('puts agents that share a fire point in one group and keeps the groups in run order', () => {
    const agents = [
      { name: 'b', schedule: { run_every_n_ticks: 2, phase_offset: 1 } },
      { name: 'c', schedule: { run_every_n_ticks: 4, phase_offset: 3 } },
      { name: 'a', schedule: { run_every_n_ticks: 1, phase_offset: 0 } },
      { name: 'd', schedule: { run_every_n_ticks: 4, phase_offset: 1 } },
      { name: 'e', schedule: { run_every_n_ticks: 6, phase_offset: 3 } },
    ];
    expect(
      groupByFirePoint(3, agents).map((group) => [group.firePoint, group.agents.map((agent) => agent.name)]),
    ).toEqual([
      [0, ['a']],
      [0.25, ['c']],
      [0.5, ['b', 'e']],
    ]);
  });

  it('concatenates back to the firing order for random orgs', () => {
    for (let seed = 1000; seed < 1100; seed += 1) {
      const agents = randomOrg(seededRandom(seed));
      for (let tick = 1; tick <= 60; tick += 1) {
        const groups = groupByFirePoint(tick, agents);
        expect(groups.flatMap((group) => group.agents)).toEqual(firingOrder(tick, agents));
        const points = groups.map((group) => group.firePoint);
        expect(new Set(points).size).toBe(points.length);
        expect([...points].sort((a, b) => a - b)).toEqual(points);
      }
    }
  });
});

describe('nextFiringTicks', () => {
  it('lists the next ticks the agent fires at, starting from the given tick', () => {
    expect(nextFiringTicks({ run_every_n_ticks: 5, phase_offset: 2 }, 1, 3)).toEqual([2, 7, 12]);
    expect(nextFiringTicks({ run_every_n_ticks: 5, phase_offset: 2 }, 7, 2)).toEqual([7, 12]);
    expect(nextFiringTicks({}, 10, 3)).toEqual([10, 11, 12]);
    expect(nextFiringTicks({ run_every_n_ticks: 3 }, 1, 0)).toEqual([]);
  });

  it('agrees with firesAt for random schedules', () => {
    const random = seededRandom(42);
    for (let trial = 0; trial < 500; trial += 1) {
      const schedule = {
        run_every_n_ticks: 1 + Math.floor(random() * 12),
        phase_offset: Math.floor(random() * 61) - 30,
      };
      const from = 1 + Math.floor(random() * 100);
      const expected: number[] = [];
      for (let tick = from; expected.length < 4; tick += 1)
        if (python.shouldRun(schedule, tick)) expected.push(tick);
      expect(nextFiringTicks(schedule, from, 4)).toEqual(expected);
    }
  });
});
