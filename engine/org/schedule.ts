/**
 * LeMMing's scheduling rule as its code implements it (not as its docs describe it):
 * an agent fires at tick t iff `t mod N == P mod N` with a floored modulo, and the agents firing in a
 * tick run in order of (fire point, name), names compared by code point.
 */

/** The part of a resume's `schedule` this module reads. LeMMing treats 0 or missing N as 1, missing P as 0. */
export interface ScheduleFields {
  run_every_n_ticks?: number | null;
  phase_offset?: number | null;
}

export interface Scheduled {
  name: string;
  schedule: ScheduleFields;
}

export interface FirePointGroup<T extends Scheduled> {
  firePoint: number;
  agents: T[];
}

/** Python's `%`: the result takes the sign of the divisor, so a negative phase offset still lands in [0, n). */
export function floorMod(value: number, divisor: number): number {
  return ((value % divisor) + divisor) % divisor;
}

export function periodOf(schedule: ScheduleFields): number {
  const period = schedule.run_every_n_ticks;
  return typeof period === 'number' && Number.isInteger(period) && period >= 1 ? period : 1;
}

export function phaseOf(schedule: ScheduleFields): number {
  const phase = schedule.phase_offset;
  return typeof phase === 'number' && Number.isInteger(phase) ? phase : 0;
}

export function firesAt(tick: number, schedule: ScheduleFields): boolean {
  const period = periodOf(schedule);
  return floorMod(tick, period) === floorMod(phaseOf(schedule), period);
}

/** Where in a tick the agent runs, in [0, 1): `((−P mod N) mod N) / N`, and 0 when N is 1. */
export function firePoint(schedule: ScheduleFields): number {
  const period = periodOf(schedule);
  if (period === 1) return 0;
  return floorMod(-floorMod(phaseOf(schedule), period), period) / period;
}

/**
 * Orders strings the way Python compares `str`: by Unicode code point. JavaScript's `<` compares UTF-16
 * code units, which disagrees for characters above U+FFFF against U+E000..U+FFFF, and `localeCompare`
 * disagrees on case and punctuation.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    if (left.charCodeAt(index) !== right.charCodeAt(index)) {
      return (left.codePointAt(index) ?? 0) - (right.codePointAt(index) ?? 0);
    }
  }
  return left.length - right.length;
}

/** The agents that fire at `tick`, in the order LeMMing runs them. */
export function firingOrder<T extends Scheduled>(tick: number, agents: readonly T[]): T[] {
  return agents
    .filter((agent) => firesAt(tick, agent.schedule))
    .map((agent) => ({ agent, point: firePoint(agent.schedule) }))
    .sort((a, b) => a.point - b.point || compareCodePoints(a.agent.name, b.agent.name))
    .map(({ agent }) => agent);
}

/**
 * The firing agents of `tick` split into groups that share a fire point, groups in run order. Agents in
 * one group may run concurrently; their results are committed in the group's order.
 */
export function groupByFirePoint<T extends Scheduled>(
  tick: number,
  agents: readonly T[],
): FirePointGroup<T>[] {
  const groups: FirePointGroup<T>[] = [];
  for (const agent of firingOrder(tick, agents)) {
    const point = firePoint(agent.schedule);
    const last = groups[groups.length - 1];
    if (last && last.firePoint === point) last.agents.push(agent);
    else groups.push({ firePoint: point, agents: [agent] });
  }
  return groups;
}

/** The first `count` ticks at or after `fromTick` at which the schedule fires, for the schedule preview. */
export function nextFiringTicks(schedule: ScheduleFields, fromTick: number, count: number): number[] {
  const period = periodOf(schedule);
  const first = fromTick + floorMod(phaseOf(schedule) - fromTick, period);
  const wanted = Math.max(0, Math.floor(count));
  return Array.from({ length: wanted }, (_, index) => first + index * period);
}
