import { describe, expect, it } from 'vitest';
import { inReadyRuns, startWithConcurrency } from './concurrency';

/** Runs `items` (keyed by their first letter) and records the most running at once, overall and per key. */
async function run(items: string[], overall: number, perKey: Record<string, number>) {
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const bump = (key: string, by: number) => {
    running.set(key, (running.get(key) ?? 0) + by);
    most.set(key, Math.max(most.get(key) ?? 0, running.get(key)!));
  };
  const results = await Promise.all(
    startWithConcurrency(
      items,
      { overall, keyOf: (item) => item[0]!, limitOf: (key) => perKey[key]! },
      async (item) => {
        bump(item[0]!, 1);
        bump('all', 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        bump(item[0]!, -1);
        bump('all', -1);
        return item.toUpperCase();
      },
    ),
  );
  return { results, most: Object.fromEntries(most) };
}

describe('startWithConcurrency with limits per key', () => {
  it('holds every key to its limit and all items to the overall one, and returns results in input order', async () => {
    const items = ['a1', 'b1', 'a2', 'b2', 'a3', 'b3', 'a4', 'c1', 'c2'];
    const { results, most } = await run(items, 4, { a: 1, b: 2, c: 5 });
    expect(results).toEqual(items.map((item) => item.toUpperCase()));
    expect(most).toEqual({ a: 1, b: 2, c: 2, all: 4 });
  });

  it('lets other keys use the overall slots while one key waits for its own', async () => {
    const { most } = await run(['a1', 'a2', 'a3', 'a4', 'b1', 'b2', 'b3'], 4, { a: 1, b: 3 });
    expect(most.all).toBe(4);
  });
});

describe('inReadyRuns', () => {
  const later = <T>(value: T, ms: number) =>
    new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

  it('gives the next result with every later one already there, in input order, never waiting for more', async () => {
    const third = later('c', 40);
    const promises = [later('a', 20), Promise.resolve('b'), third, Promise.resolve('d'), later('e', 80)];
    const runs: string[][] = [];
    for await (const run of inReadyRuns(promises)) runs.push(run);
    expect(runs).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('with a gathering window, lets results that arrive within it join the run, in input order', async () => {
    const promises = [later('a', 10), later('b', 30), later('c', 60), later('d', 400)];
    const runs: string[][] = [];
    for await (const run of inReadyRuns(promises, 150)) runs.push(run);
    expect(runs).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('with a gathering window, does not wait once every result is there', async () => {
    const began = performance.now();
    const runs: string[][] = [];
    for await (const run of inReadyRuns([later('a', 10), later('b', 20)], 60_000)) runs.push(run);
    expect(runs).toEqual([['a', 'b']]);
    expect(performance.now() - began).toBeLessThan(30_000);
  });

  it("passes a rejection on when that result's turn comes, after the runs before it", async () => {
    const runs: string[][] = [];
    const failing = Promise.reject(new Error('no'));
    const consume = async () => {
      for await (const run of inReadyRuns([Promise.resolve('a'), failing, Promise.resolve('c')]))
        runs.push(run);
    };
    await expect(consume()).rejects.toThrow('no');
    expect(runs).toEqual([['a']]);
  });
});
