/** How many items may run at once: overall, and per key (for turns, the model provider they wait on). */
export interface ConcurrencyLimits<T> {
  overall: number;
  keyOf: (item: T) => string;
  limitOf: (key: string) => number;
}

/**
 * Starts `fn` for every item with at most `limit` running at once (and, with keyed limits, at most
 * `limitOf(key)` of one key), and returns one promise per item in input order, so a caller can use each
 * result as soon as it and the ones before it are ready. Items of one key start in input order.
 */
export function startWithConcurrency<T, R>(
  items: readonly T[],
  limit: number | ConcurrencyLimits<T>,
  fn: (item: T) => Promise<R>,
): Promise<R>[] {
  const limits =
    typeof limit === 'number' ? { overall: limit, keyOf: () => '', limitOf: () => limit } : limit;
  const overall = new Slots(limits.overall);
  const byKey = new Map<string, Slots>();
  const slotsOf = (key: string) => {
    let slots = byKey.get(key);
    if (!slots) byKey.set(key, (slots = new Slots(limits.limitOf(key))));
    return slots;
  };
  return items.map(async (item) => {
    const keySlots = slotsOf(limits.keyOf(item));
    // The key's slot first: an item waiting for its provider holds no overall slot another provider could use.
    await keySlots.acquire();
    await overall.acquire();
    try {
      return await fn(item);
    } finally {
      overall.release();
      keySlots.release();
    }
  });
}

/**
 * The results of `promises` in input order, in runs: each run is the next result, once it is there, with
 * every result after it that is there by then. A caller can then handle a run at once (one transaction
 * for several turns). With `gatherMs`, a run waits up to that long after its first result for later ones
 * (and no longer once every promise has settled), so results that arrive close together share a run.
 */
export async function* inReadyRuns<R>(promises: readonly Promise<R>[], gatherMs = 0): AsyncGenerator<R[]> {
  const ready: ({ value: R } | undefined)[] = [];
  promises.forEach((promise, index) =>
    promise.then(
      (value) => (ready[index] = { value }),
      // The rejection reaches the caller when its turn to be awaited comes.
      () => undefined,
    ),
  );
  const allSettled = Promise.allSettled(promises);
  for (let index = 0; index < promises.length;) {
    const run: R[] = [await promises[index]!];
    if (gatherMs > 0) await settledOrAfter(allSettled, gatherMs);
    for (index += 1; index < promises.length && ready[index]; index += 1) run.push(ready[index]!.value);
    yield run;
  }
}

/** Resolves when `settled` does or after `ms`, whichever comes first, leaving no timer behind. */
async function settledOrAfter(settled: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly size: number;

  constructor(size: number) {
    this.size = Math.max(1, size);
  }

  acquire(): Promise<void> {
    if (this.running < this.size) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
