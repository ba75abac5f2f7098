/**
 * A signal for one model call: it aborts when `parent` (the run's signal) does or when `timeoutMs` has
 * passed without a `restart` (each piece of a streamed answer restarts it: the limit is on silence, not
 * on the whole answer). `dispose` clears the timer and the listener on `parent`, so nothing outlives the call:
 * AbortSignal.timeout keeps its timer (and the signal) for the whole timeout however short the call, and
 * AbortSignal.any ties every combined signal to a long-lived parent.
 */
export function callDeadline(
  parent: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; restart(): void; dispose(): void } {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  const startTimer = () =>
    setTimeout(
      () => controller.abort(new DOMException(`nothing arrived for ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
  let timer = startTimer();
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    restart() {
      if (controller.signal.aborted) return;
      clearTimeout(timer);
      timer = startTimer();
    },
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
