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
