/** Admits callers one at a time as room allows; each admitted caller releases once. */
export interface Gate {
  acquire(): Promise<void>;
  release(): void;
}

/**
 * How many items may run at once: overall, and per key (for turns, the model server they wait on). A
 * key's limit is a number of slots, or a gate of its own (a server's adaptive limit); the overall one
 * may change while items run (it follows the servers' limits).
 */
export interface ConcurrencyLimits<T> {
  overall: number | (() => number);
  keyOf: (item: T) => string;
  limitOf: (key: string) => number | Gate;
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
  const overallLimit = limits.overall;
  const overall = new Slots(typeof overallLimit === 'number' ? () => overallLimit : overallLimit);
  const byKey = new Map<string, Gate>();
  const gateOf = (key: string) => {
    let gate = byKey.get(key);
    if (!gate) {
      const keyLimit = limits.limitOf(key);
      byKey.set(key, (gate = typeof keyLimit === 'number' ? new Slots(() => keyLimit) : keyLimit));
    }
    return gate;
  };
  return items.map(async (item) => {
    const keyGate = gateOf(limits.keyOf(item));
    // The key's slot first: an item waiting for its provider holds no overall slot another provider could use.
    await keyGate.acquire();
    await overall.acquire();
    try {
      return await fn(item);
    } finally {
      overall.release();
      keyGate.release();
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

/**
 * A number of slots that may change while they are held (never fewer than one), and that can be held
 * shut until a time: waiting callers are admitted in order as room comes.
 */
export class Slots implements Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly size: () => number,
    private readonly heldUntil: () => number = () => Number.NEGATIVE_INFINITY,
    private readonly now: () => number = Date.now,
  ) {}

  get inUse(): number {
    return this.running;
  }

  acquire(): Promise<void> {
    const admitted = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.admit();
    return admitted;
  }

  release(): void {
    this.running -= 1;
    this.admit();
  }

  /** Lets in as many waiting callers as there is room for now; call it when the size grew or a hold ended. */
  admit(): void {
    const held = this.heldUntil() - this.now();
    if (held > 0) {
      if (this.waiting.length > 0 && this.timer === undefined)
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.admit();
        }, held);
      return;
    }
    while (this.waiting.length > 0 && this.running < Math.max(1, this.size())) {
      this.running += 1;
      this.waiting.shift()!();
    }
  }
}
