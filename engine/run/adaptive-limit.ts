/**
 * How many calls at once one model server is asked for, learned from its answers: additive increase
 * and multiplicative decrease on latency, as TCP's congestion control and Netflix's concurrency-limits
 * (AIMD, Vegas, Gradient2) do. A pure function of what was observed, so it is tested without a server.
 *
 * - Calls are judged in windows of about `limit` answers (one round trip at full use). A window whose
 *   mean latency stays within LATENCY_TOLERANCE of the lowest window mean seen (the server's latency
 *   when it is not queueing) raises the limit: doubled while still in slow start, else by one.
 * - A window slower than that (calls queue at the server: by Little's law their latency grows with the
 *   calls sent beyond what it serves at once) lowers it in proportion (the latency gradient, Gradient2's
 *   idea): by LATENCY_CUT at least, by half at most. A rate-limit answer (429, 503) lowers it by
 *   RATE_LIMIT_CUT, though not below the calls the server was serving when it refused (their answers
 *   show it: for a server that caps the calls in flight, that is its cap), nor raised past that for
 *   PROBE_AFTER_WINDOWS windows. Either ends slow start. Answers to calls begun before the last cut
 *   do not cut again (they were sent under the old limit), nor do rate-limit answers within a round
 *   trip of it (the refused calls' own retries meet the calls still in flight).
 * - A window in which fewer than half the allowed calls were in flight says nothing about the server's
 *   limit, so it never raises it (the limit stays within twice what the org asks of the server).
 * - The server's `retry-after` (on a 429 or 503) and an exhausted `x-ratelimit-remaining-*` with its
 *   `x-ratelimit-reset-*` hold every new call to that server until then.
 * - The lowest window mean relaxes by BASELINE_RELAX a window, so a model that became slower for good
 *   (longer answers) is not taken for queueing for ever.
 * - A window whose answers mostly came while the engine's own thread was busy nearly all the time (its
 *   turns' work, or other programs taking the CPU) is not judged by latency: the engine read those
 *   answers late, so their latency is partly its own, and fewer calls would not make the server faster.
 */

export const LATENCY_TOLERANCE = 1.25;
export const LATENCY_CUT = 0.9;
export const RATE_LIMIT_CUT = 0.9;
export const BASELINE_RELAX = 0.001;
/** Windows after a refusal before the limit is raised past the calls the server was serving then. */
export const PROBE_AFTER_WINDOWS = 8;
/** No server is asked for more than this at once, whatever it seems to take. */
export const LIMIT_CEILING = 1024;

/** How one call to the server went, as the limiter sees it. */
export interface LimitSample {
  /** Milliseconds on one clock (the limiter never reads the time itself). */
  startedAt: number;
  endedAt: number;
  /** Calls sent to this server and not answered when this one was answered, itself included. */
  inFlight: number;
  /** `rate_limited`: 429 or 503; `failed`: any other failure, which says nothing about capacity. */
  answer: 'answered' | 'rate_limited' | 'failed';
  /** The server's retry-after (or retry-after-ms), in milliseconds. */
  retryAfterMs: number | null;
  /** The lowest `x-ratelimit-remaining-*` the answer carried, and when that budget resets (ms from now). */
  remaining: number | null;
  resetMs: number | null;
  /**
   * The engine itself was busy all but a little of the time when the answer came: its latency is then
   * partly the engine's own (it read the answer late), not the server's.
   */
  engineBusy?: boolean;
}

export interface LimitState {
  /** Fractional, so increases and cuts compound; calls admitted are its floor, at least 1. */
  limit: number;
  slowStart: boolean;
  /** The lowest window mean latency seen (relaxing), null until the first window closes. */
  baselineMs: number | null;
  window: { count: number; totalMs: number; peakInFlight: number; exhausted: boolean; engineBusy: number };
  lastCutAt: number;
  /** No new call starts before this time (the server's retry-after or rate-limit reset). */
  holdUntil: number;
  /** The last refusal (429, 503): when, the limit before it, and how many calls the server was serving then. */
  refusal: { at: number; limitBefore: number; servedThrough: number; windowsSince: number } | null;
}

/** What is remembered of a server across runs. */
export interface LearnedLimit {
  limit: number;
  baselineMs: number | null;
}

const EMPTY_WINDOW: LimitState['window'] = {
  count: 0,
  totalMs: 0,
  peakInFlight: 0,
  exhausted: false,
  engineBusy: 0,
};

/**
 * The state a server starts with: its default (slow start from there), or what a run before learned
 * of it (no slow start: that limit was already found).
 */
export function startingLimit(defaultLimit: number, learned?: LearnedLimit): LimitState {
  return {
    limit: clamp(learned?.limit ?? defaultLimit),
    slowStart: learned === undefined,
    baselineMs: learned?.baselineMs ?? null,
    window: EMPTY_WINDOW,
    lastCutAt: Number.NEGATIVE_INFINITY,
    holdUntil: Number.NEGATIVE_INFINITY,
    refusal: null,
  };
}

/** Calls that may be in flight at once under this state. */
export function admitted(state: LimitState): number {
  return Math.max(1, Math.floor(state.limit));
}

export function observe(state: LimitState, sample: LimitSample): LimitState {
  if (sample.answer === 'failed') return state;
  if (sample.answer === 'rate_limited') {
    const holdUntil = Math.max(state.holdUntil, sample.endedAt + (sample.retryAfterMs ?? 0));
    // One cut a round trip: the refused calls' retries, and calls sent before the cut, are refused for
    // what was in flight then.
    const roundTripSinceCut = sample.endedAt >= state.lastCutAt + (state.baselineMs ?? 0);
    if (sample.startedAt < state.lastCutAt || !roundTripSinceCut) return { ...state, holdUntil };
    return {
      ...cut(state, RATE_LIMIT_CUT, sample.endedAt, holdUntil),
      refusal: { at: sample.endedAt, limitBefore: state.limit, servedThrough: 0, windowsSince: 0 },
    };
  }
  const exhausted = sample.remaining === 0;
  const holdUntil =
    exhausted && sample.resetMs !== null
      ? Math.max(state.holdUntil, sample.endedAt + sample.resetMs)
      : state.holdUntil;
  const refusal = state.refusal;
  // A call the server was serving when it refused another: it serves at least as many as those at once.
  if (refusal && sample.startedAt <= refusal.at && sample.endedAt >= refusal.at) {
    const servedThrough = refusal.servedThrough + 1;
    state = {
      ...state,
      refusal: { ...refusal, servedThrough },
      limit: Math.max(state.limit, Math.min(refusal.limitBefore, servedThrough)),
    };
  }
  // Answers to calls sent under a limit since cut belong to no window: they would judge the new limit by the old.
  if (sample.startedAt < state.lastCutAt) return { ...state, holdUntil };
  const window = {
    count: state.window.count + 1,
    totalMs: state.window.totalMs + Math.max(0, sample.endedAt - sample.startedAt),
    peakInFlight: Math.max(state.window.peakInFlight, sample.inFlight),
    exhausted: state.window.exhausted || exhausted,
    engineBusy: state.window.engineBusy + (sample.engineBusy ? 1 : 0),
  };
  if (window.count < admitted(state)) return { ...state, window, holdUntil };
  return closeWindow({ ...state, holdUntil }, window, sample.endedAt);
}

function closeWindow(state: LimitState, window: LimitState['window'], now: number): LimitState {
  const mean = window.totalMs / window.count;
  // Latency read by an engine busy most of the window measures the engine: it neither cuts nor teaches.
  if (window.engineBusy * 2 > window.count) return { ...afterWindow(state), ...grown(state, window) };
  const relaxed = state.baselineMs === null ? mean : state.baselineMs * (1 + BASELINE_RELAX);
  const baselineMs = Math.min(relaxed, mean);
  // The gradient: how far the calls are past what the server serves without queueing, at least a
  // LATENCY_CUT, at most halving.
  const gradient = (LATENCY_TOLERANCE * baselineMs) / mean;
  if (gradient < 1)
    return cut({ ...afterWindow(state), baselineMs }, Math.max(0.5, Math.min(LATENCY_CUT, gradient)), now);
  return { ...afterWindow(state), baselineMs, ...grown(state, window) };
}

function afterWindow(state: LimitState): LimitState {
  const refusal = state.refusal && { ...state.refusal, windowsSince: state.refusal.windowsSince + 1 };
  return { ...state, refusal, window: EMPTY_WINDOW };
}

/** The limit after a window that did not cut it: raised when the window used it and no budget ran out. */
function grown(state: LimitState, window: LimitState['window']): { limit: number } {
  const used = window.peakInFlight * 2 >= state.limit;
  if (!used || window.exhausted) return { limit: state.limit };
  const raised = clamp(state.slowStart ? state.limit + window.count : state.limit + 1);
  // Not past what the server showed it serves at its last refusal, until a while after it.
  const shown = state.refusal;
  if (shown && shown.windowsSince < PROBE_AFTER_WINDOWS && shown.servedThrough > 0)
    return { limit: Math.max(state.limit, Math.min(raised, shown.servedThrough)) };
  return { limit: raised };
}

function cut(state: LimitState, factor: number, now: number, holdUntil = state.holdUntil): LimitState {
  return {
    ...state,
    limit: clamp(state.limit * factor),
    slowStart: false,
    window: EMPTY_WINDOW,
    lastCutAt: now,
    holdUntil,
  };
}

function clamp(limit: number): number {
  return Math.min(LIMIT_CEILING, Math.max(1, limit));
}
