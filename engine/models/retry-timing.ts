/** How long to wait between attempts. Injectable so tests can record delays instead of sleeping. */
export interface RetryTiming {
  /** Delay before the first retry; doubles for each further retry. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's Retry-After is honoured up to this long. */
  maxRetryAfterMs: number;
  /** In [0, 1); spreads retries of many agents so they do not hit a rate limit together. */
  random: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  now: () => number;
}

export const DEFAULT_RETRY_TIMING: RetryTiming = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
  random: Math.random,
  sleep: abortableSleep,
  now: Date.now,
};

/**
 * The wait before retry number `retry` (1-based): the server's Retry-After when it gave one (capped),
 * else exponential backoff with equal jitter (half fixed, half random).
 */
export function retryDelayMs(retry: number, retryAfterMs: number | null, timing: RetryTiming): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, timing.maxRetryAfterMs);
  const ceiling = Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + timing.random() * (ceiling / 2));
}

/** Retry-After in milliseconds: delay-seconds or an HTTP date. Null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = /^[A-Za-z]{3}, /.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
