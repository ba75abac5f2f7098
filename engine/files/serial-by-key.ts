const tails = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task with the same key has finished, so two read-modify-write
 * cycles on one file in this process never interleave and lose an update.
 */
export function runSerially<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const result = previous.then(task, task);
  const tail = result.catch(() => undefined);
  tails.set(key, tail);
  void tail.then(() => {
    if (tails.get(key) === tail) tails.delete(key);
  });
  return result;
}
