import { describe, expect, it } from 'vitest';
import {
  admitted,
  LIMIT_CEILING,
  observe,
  startingLimit,
  type LimitSample,
  type LimitState,
} from './adaptive-limit';

/** One round trip: `admitted(state)` calls sent at `at`, each answering after `latencyMs` with `inFlight` in flight. */
function roundTrip(
  state: LimitState,
  at: number,
  latencyMs: number,
  extra: Partial<LimitSample> = {},
): LimitState {
  const calls = admitted(state);
  for (let call = 0; call < calls; call += 1)
    state = observe(state, {
      startedAt: at,
      endedAt: at + latencyMs,
      inFlight: calls - call,
      answer: 'answered',
      retryAfterMs: null,
      remaining: null,
      resetMs: null,
      ...extra,
    });
  return state;
}

const refused = (at: number, retryAfterMs: number | null): LimitSample => ({
  startedAt: at,
  endedAt: at + 5,
  inFlight: 1,
  answer: 'rate_limited',
  retryAfterMs,
  remaining: 0,
  resetMs: null,
});

describe('the adaptive limit of one model server', () => {
  it('doubles each round trip from its default while latency stays flat (slow start)', () => {
    let state = startingLimit(4);
    const limits = [admitted(state)];
    for (let trip = 0; trip < 4; trip += 1) {
      state = roundTrip(state, trip * 1000, 1000);
      limits.push(admitted(state));
    }
    expect(limits).toEqual([4, 8, 16, 32, 64]);
  });

  it('is lowered as far as latency climbed past its tolerance (calls queue at the server), then rises by one a round trip', () => {
    let state = startingLimit(8);
    state = roundTrip(state, 0, 1000);
    expect(admitted(state)).toBe(16);
    // Half of the 16 calls queue behind the server's 8 slots: the mean latency is 1.5 s against 1 s.
    state = roundTrip(state, 1000, 1500);
    expect(state.limit).toBeCloseTo(16 * (1.25 / 1.5), 1);
    expect(state.slowStart).toBe(false);
    state = roundTrip(state, 2500, 1000);
    expect(admitted(state)).toBe(14);
    // A little past the tolerance still cuts a tenth; far past it, by half at most.
    expect(roundTrip(state, 3500, 1300).limit).toBeCloseTo(state.limit * 0.9);
    expect(roundTrip(state, 3500, 9000).limit).toBeCloseTo(state.limit * 0.5);
  });

  it('settles near what a server with 8 slots and a queue serves, not at what it accepts', () => {
    let state = startingLimit(4);
    const seen: number[] = [];
    for (let trip = 0, at = 0; trip < 60; trip += 1) {
      const limit = admitted(state);
      // Little's law: with `limit` calls kept in flight on 8 slots, each waits limit/8 service times.
      const latency = 1000 * Math.max(1, limit / 8);
      state = roundTrip(state, at, latency);
      at += latency;
      if (trip >= 20) seen.push(admitted(state));
    }
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(6);
    expect(Math.max(...seen)).toBeLessThanOrEqual(12);
  });

  it('is lowered once by a 429 and holds new calls until its retry-after; refusals within a round trip do not cut again', () => {
    let state = roundTrip(startingLimit(32), 0, 1000);
    expect(admitted(state)).toBe(64);
    state = observe(state, refused(1000, 2000));
    expect(admitted(state)).toBe(57);
    expect(state.holdUntil).toBe(1005 + 2000);
    state = observe(state, refused(1500, 500));
    expect(admitted(state)).toBe(57);
    expect(state.holdUntil).toBe(1005 + 2000);
    // A refusal of a call sent a round trip later cuts again.
    state = observe(state, refused(2100, null));
    expect(admitted(state)).toBe(51);
  });

  it('is not lowered below the calls a server was serving when it refused one (its cap on calls in flight)', () => {
    // 52 sent at once to a server that serves 50: the refusal cuts to 46.8, then the 50 answers to
    // calls that were in flight through it show the server's cap.
    let state = observe(startingLimit(52), refused(0, 1000));
    expect(admitted(state)).toBe(46);
    for (let call = 0; call < 50; call += 1)
      state = observe(state, {
        startedAt: 0,
        endedAt: 1000 + call,
        inFlight: 50 - call,
        answer: 'answered',
        retryAfterMs: null,
        remaining: 1,
        resetMs: null,
      });
    expect(admitted(state)).toBe(50);
    // Nor raised past that cap for a while: the next round trips at 50 do not probe 51.
    state = roundTrip(state, 2000, 1000, { inFlight: 50 });
    state = roundTrip(state, 3000, 1000, { inFlight: 50 });
    expect(admitted(state)).toBe(50);
  });

  it('holds new calls until the reset when the server says none of its budget remains', () => {
    let state = startingLimit(32);
    state = observe(state, {
      startedAt: 0,
      endedAt: 800,
      inFlight: 3,
      answer: 'answered',
      retryAfterMs: null,
      remaining: 0,
      resetMs: 6000,
    });
    expect(state.holdUntil).toBe(6800);
    expect(admitted(state)).toBe(32);
  });

  it('never goes below one call at once, however often the server refuses', () => {
    let state = startingLimit(2);
    for (let at = 0; at < 100_000; at += 10_000) state = observe(state, refused(at, 100));
    expect(state.limit).toBe(1);
    expect(admitted(state)).toBe(1);
  });

  it('does not rise while the org asks for fewer than half the calls it may make, nor past the ceiling', () => {
    let state = startingLimit(32);
    state = roundTrip(state, 0, 1000, { inFlight: 10 });
    expect(admitted(state)).toBe(32);
    state = startingLimit(LIMIT_CEILING - 1);
    state = roundTrip(state, 0, 1000);
    expect(admitted(state)).toBe(LIMIT_CEILING);
  });

  it('does not take slow answers read while the engine itself was busy for queueing at the server', () => {
    let state = roundTrip(startingLimit(16), 0, 1000);
    expect(admitted(state)).toBe(32);
    state = roundTrip(state, 1000, 3000, { engineBusy: true });
    expect(admitted(state)).toBe(64);
    expect(state.baselineMs).toBe(1000);
  });

  it('ignores failures that are not about capacity (a 500, a dropped connection)', () => {
    const state = startingLimit(8);
    expect(
      observe(state, { ...refused(0, null), answer: 'failed', retryAfterMs: null, remaining: null }),
    ).toBe(state);
  });

  it('starts a server from what an earlier run learned of it, without slow start, judged by that latency', () => {
    const state = startingLimit(4, { limit: 10, baselineMs: 1000 });
    expect(admitted(state)).toBe(10);
    expect(state.slowStart).toBe(false);
    // The calls queue already (1.5 s against the 1 s learned): lowered, not taken as the new normal.
    expect(admitted(roundTrip(state, 0, 1500))).toBe(8);
  });
});
