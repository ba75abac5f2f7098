import { describe, expect, it } from 'vitest';
import {
  abortableSleep,
  DEFAULT_RETRY_TIMING,
  parseRetryAfter,
  retryDelayMs,
  type RetryTiming,
} from './retry-timing';

const timing = (random: number): RetryTiming => ({
  ...DEFAULT_RETRY_TIMING,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  maxRetryAfterMs: 5000,
  random: () => random,
});

describe('retryDelayMs', () => {
  it('doubles the ceiling per retry and jitters within its upper half', () => {
    expect([1, 2, 3].map((retry) => retryDelayMs(retry, null, timing(0)))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((retry) => retryDelayMs(retry, null, timing(0.999999)))).toEqual([100, 200, 400]);
  });

  it('never exceeds the maximum delay', () => {
    expect(retryDelayMs(12, null, timing(0.999999))).toBe(1000);
  });

  it("uses the server's Retry-After, capped", () => {
    expect(retryDelayMs(1, 2000, timing(0))).toBe(2000);
    expect(retryDelayMs(1, 120_000, timing(0))).toBe(5000);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    expect(parseRetryAfter(undefined, 0)).toBeNull();
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter('-4', 0)).toBeNull();
  });
});

describe('abortableSleep', () => {
  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = abortableSleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
  });

  it('resolves after the delay', async () => {
    await expect(abortableSleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});
