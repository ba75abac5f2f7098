import { describe, expect, it } from 'vitest';
import { startWithConcurrency } from './concurrency';

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
