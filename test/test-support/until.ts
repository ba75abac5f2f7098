/** What `until` found: anything but the "not yet" values. */
export type Found<T> = Exclude<T, undefined | null | false>;

/**
 * Waits until `check` gives something (not undefined, null or false) and returns it, asking again every
 * `everyMs`; after `timeoutMs` it fails, naming `what` it waited for. The one polling wait of the tests.
 */
export async function until<T>(
  check: () => T | Promise<T>,
  what = 'the condition',
  { timeoutMs = 20_000, everyMs = 10 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<Found<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined && found !== null && found !== false) return found as Found<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
