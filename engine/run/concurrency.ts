/**
 * Starts `fn` for every item with at most `limit` running at once, and returns one promise per item in
 * input order, so a caller can use each result as soon as it and the ones before it are ready.
 */
export function startWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R>[] {
  const slots = Math.max(1, limit);
  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = () => (running < slots ? (running += 1, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  return items.map(async (item) => {
    await acquire();
    try {
      return await fn(item);
    } finally {
      release();
    }
  });
}
