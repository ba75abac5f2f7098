/**
 * A signal for one model call: it aborts when `parent` (the run's signal) does or when `timeoutMs` has
 * passed. `dispose` clears the timer and the listener on `parent`, so nothing outlives the call:
 * AbortSignal.timeout keeps its timer (and the signal) for the whole timeout however short the call, and
 * AbortSignal.any ties every combined signal to a long-lived parent.
 */
export function callDeadline(
  parent: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException(`the call took longer than ${timeoutMs} ms`, 'TimeoutError')),
    timeoutMs,
  );
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
