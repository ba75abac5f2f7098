import { Agent, request, type Dispatcher } from 'undici';
import { isRetryableStatus, kindOfHttpStatus, type FailureKind } from '../api/failure';
import { isModelCallError, ModelCallError, redactSecrets } from './model-call-error';
import { StreamError } from './stream-events';
import { parseRetryAfter, retryDelayMs, type RetryTiming } from './retry-timing';
import { rateLimitBudget, type RateLimitBudget } from './rate-limit-headers';
import type { ServerAnswer, ServerCallWatch } from './types';

/** A model answer bigger than this is not a chat completion; refuse it rather than exhaust memory. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const ERROR_DETAIL_CHARS = 300;
/** Errors from a socket that dropped mid-request: worth another attempt. */
const CONNECTION_RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

export interface JsonPost {
  /** Who is being called, for messages: "OpenAI", "Anthropic", "Ollama". */
  service: string;
  url: string;
  headers: Record<string, string>;
  /** GET sends no body (listing a server's models); POST is the default. */
  method?: 'GET' | 'POST';
  body?: unknown;
  /** Deadline for the whole call, retries and waits included. */
  timeoutMs: number;
  maxRetries: number;
  signal?: AbortSignal;
  dispatcher?: Dispatcher;
  timing: RetryTiming;
  /** Values (API keys) that must never appear in an error message or in the returned body. */
  secrets: readonly string[];
  /**
   * Reads a successful answer as it arrives (a streamed one) and returns the assembled body. A stream
   * that breaks off is not retried: its pieces have been shown already. Once it flows, `timeoutMs` is
   * the longest silence between pieces, not a limit on the whole answer (a slow local model may write
   * for minutes). A server that answers with plain JSON instead (it ignored `stream`) is read as JSON.
   */
  readStream?: (body: AsyncIterable<Buffer>) => Promise<unknown>;
  /** Called when an attempt failed and another follows: what it streamed does not count. */
  onRetry?: () => void;
  /** Told of each attempt (the adaptive concurrency of engine/run learns the server from it). */
  watch?: ServerCallWatch;
}

export interface JsonPostResult {
  body: unknown;
  attempts: number;
}

type Attempt = { budget: RateLimitBudget } & (
  { done: true; body: unknown } | { done: false; error: ModelCallError; retryAfterMs: number | null }
);

const NO_BUDGET: RateLimitBudget = { remaining: null, resetMs: null };

/** Answers that say the server has no room now: waited out and retried for as long as the deadline allows. */
export function isRateLimitStatus(status: number | undefined): boolean {
  return status === 429 || status === 503;
}

let sharedDispatcher: Dispatcher | undefined;

function defaultDispatcher(): Dispatcher {
  sharedDispatcher ??= new Agent({ connect: { timeout: 15_000 } });
  return sharedDispatcher;
}

/**
 * POSTs JSON and returns the parsed JSON answer. Retries 429, 5xx and dropped connections with
 * backoff, within one overall deadline; every failure is a ModelCallError with secrets redacted.
 */
export async function postJson(call: JsonPost): Promise<JsonPostResult> {
  const started = call.timing.now();
  // One signal for the deadline and the caller's cancel. Not AbortSignal.any: with a long-lived
  // run signal passed to every call it keeps each combined signal alive.
  const abort = new AbortController();
  let timer = setTimeout(() => abort.abort(), call.timeoutMs);
  const onCallerAbort = () => abort.abort();
  if (call.signal?.aborted) abort.abort();
  else call.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const signal = abort.signal;
  let silent = false;
  const errors = callErrors(call, () => silent);
  // Once a stream flows, the deadline becomes a limit on silence: each piece restarts it.
  const streamPiece = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      silent = true;
      abort.abort();
    }, call.timeoutMs);
  };

  const report = (
    startedAt: number,
    status: number | null,
    budget: RateLimitBudget,
    extra: Partial<ServerAnswer> = {},
  ) =>
    call.watch?.answered({
      startedAt,
      endedAt: call.timing.now(),
      status,
      retryAfterMs: null,
      retryInMs: null,
      ...budget,
      ...extra,
    });
  try {
    // Rate-limit answers are not counted against max_retries (unless it is 0, no retries): they are
    // waited out within the deadline, so a busy server slows a turn instead of failing it.
    let retries = 0;
    // The waits asked for so far: the deadline holds them even where `sleep` does not take real time.
    let waited = 0;
    for (let attempt = 1; ; attempt += 1) {
      const attemptStarted = call.timing.now();
      call.watch?.sent();
      let outcome: Attempt;
      try {
        outcome = await attemptOnce(call, signal, attempt, errors, streamPiece);
      } catch (error) {
        report(attemptStarted, isModelCallError(error) ? (error.status ?? null) : null, NO_BUDGET);
        throw error;
      }
      if (outcome.done) {
        report(attemptStarted, 200, outcome.budget);
        return { body: outcome.body, attempts: attempt };
      }
      if (call.maxRetries === 0 || !isRateLimitStatus(outcome.error.status)) retries += 1;
      // Past max_retries a rate-limited call backs off at least as a failed one would, whatever the
      // server's retry-after says: a server answering "retry after 0" cannot spin it for its whole deadline.
      const delay =
        attempt > call.maxRetries
          ? Math.max(
              retryDelayMs(attempt, outcome.retryAfterMs, call.timing),
              retryDelayMs(attempt, null, call.timing),
            )
          : retryDelayMs(attempt, outcome.retryAfterMs, call.timing);
      const spent = Math.max(call.timing.now() - started, waited);
      const retrying = retries <= call.maxRetries && spent + delay < call.timeoutMs;
      waited += delay;
      report(attemptStarted, outcome.error.status ?? null, outcome.budget, {
        retryAfterMs: outcome.retryAfterMs,
        retryInMs: retrying ? delay : null,
      });
      if (!retrying) throw outcome.error;
      call.onRetry?.();
      try {
        await call.timing.sleep(delay, signal);
      } catch {
        throw errors.aborted(attempt);
      }
    }
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener('abort', onCallerAbort);
  }
}

interface CallErrors {
  fail(
    kind: FailureKind,
    message: string,
    attempts: number,
    extra?: { status?: number; retryable?: boolean },
  ): ModelCallError;
  /** The call's signal fired: the caller cancelled, or the deadline passed. */
  aborted(attempts: number): ModelCallError;
}

function callErrors(call: JsonPost, fellSilent: () => boolean): CallErrors {
  const fail: CallErrors['fail'] = (kind, message, attempts, extra = {}) =>
    new ModelCallError({ kind, message: redactSecrets(message, call.secrets), attempts, ...extra });
  return {
    fail,
    aborted: (attempts) =>
      call.signal?.aborted
        ? fail('cancelled', `the call to ${call.service} was cancelled`, attempts)
        : fellSilent()
          ? fail(
              'timeout',
              `${call.service} stopped writing its answer: nothing came for ${call.timeoutMs} ms (timeout_ms)`,
              attempts,
              { retryable: true },
            )
          : fail(
              'timeout',
              `${call.service} did not answer within ${call.timeoutMs} ms (timeout_ms)`,
              attempts,
              { retryable: true },
            ),
  };
}

async function attemptOnce(
  call: JsonPost,
  signal: AbortSignal,
  attempt: number,
  { fail, aborted }: CallErrors,
  streamPiece: () => void,
): Promise<Attempt> {
  const endpoint = describeEndpoint(call.url);
  let status: number;
  let text: string;
  let retryHeaders: RetryHeaders;
  let budget = NO_BUDGET;
  let readingStream = false;
  try {
    const get = call.method === 'GET';
    const response = await request(call.url, {
      method: get ? 'GET' : 'POST',
      headers: {
        ...(get ? {} : { 'content-type': 'application/json' }),
        accept: 'application/json',
        ...call.headers,
      },
      ...(get ? {} : { body: JSON.stringify(call.body) }),
      signal,
      dispatcher: call.dispatcher ?? defaultDispatcher(),
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
    status = response.statusCode;
    budget = rateLimitBudget(response.headers, call.timing.now());
    if (
      call.readStream &&
      status >= 200 &&
      status < 300 &&
      !isJson(firstHeader(response.headers['content-type']))
    ) {
      streamPiece();
      readingStream = true;
      return {
        budget,
        done: true,
        body: await readStreamOnce(
          call.readStream,
          response.body,
          call,
          signal,
          attempt,
          aborted,
          streamPiece,
        ),
      };
    }
    retryHeaders = {
      retryAfter: firstHeader(response.headers['retry-after']),
      retryAfterMs: firstHeader(response.headers['retry-after-ms']),
      shouldRetry: firstHeader(response.headers['x-should-retry']),
    };
    // Redacted before anything reads it, so neither a message nor the kept body can carry a key.
    text = redactSecrets(await readCapped(response.body), call.secrets);
  } catch (error) {
    if (signal.aborted) throw aborted(attempt);
    // A stream cut before its end is retried as a dropped connection is; its other faults stand as they are.
    if (isModelCallError(error) && readingStream) {
      if (error.retryable) return { budget, done: false, error, retryAfterMs: null };
      throw error;
    }
    if (error instanceof ResponseTooLargeError) {
      throw fail(
        'bad_response',
        `${call.service} sent more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; that is not a chat answer`,
        attempt,
      );
    }
    const code = errorCode(error);
    const reason = error instanceof Error ? error.message : String(error);
    if (TIMEOUT_CODES.has(code)) {
      throw fail('timeout', `${call.service} at ${endpoint} timed out (${reason})`, attempt, {
        retryable: true,
      });
    }
    const networkError = fail(
      networkKindOf(code),
      `cannot reach ${call.service} at ${endpoint}: ${reason}${code ? ` (${code})` : ''}`,
      attempt,
      {
        retryable: true,
      },
    );
    if (CONNECTION_RESET_CODES.has(code))
      return { budget, done: false, error: networkError, retryAfterMs: null };
    throw networkError;
  }

  if (status >= 200 && status < 300) {
    const parsed = parseJson(text);
    if (!parsed.ok) {
      throw fail(
        'bad_response',
        `${call.service} answered with something that is not JSON: ${snippet(text)}`,
        attempt,
        { status },
      );
    }
    return { budget, done: true, body: parsed.value };
  }
  const retryable = shouldRetryStatus(status, retryHeaders.shouldRetry);
  const error = fail(
    kindOfHttpStatus(status),
    `${call.service} returned HTTP ${status}${attempt > 1 ? ` after ${attempt} attempts` : ''}: ${errorDetail(text)}`,
    attempt,
    {
      status,
      retryable,
    },
  );
  if (!retryable) throw error;
  return { budget, done: false, error, retryAfterMs: serverRetryDelay(retryHeaders, call.timing.now()) };
}

interface RetryHeaders {
  retryAfter?: string | undefined;
  retryAfterMs?: string | undefined;
  shouldRetry?: string | undefined;
}

/**
 * As the official OpenAI and Anthropic SDKs decide: the server's `x-should-retry` when it says, else
 * request timeout (408), lock conflict (409), rate limit (429) and server errors.
 */
export function shouldRetryStatus(status: number, shouldRetry?: string): boolean {
  if (shouldRetry === 'true') return true;
  if (shouldRetry === 'false') return false;
  return isRetryableStatus(status);
}

/** `retry-after-ms` (milliseconds, OpenAI and Anthropic send it) before `retry-after`. */
function serverRetryDelay(headers: RetryHeaders, nowMs: number): number | null {
  const milliseconds = headers.retryAfterMs?.trim();
  if (milliseconds && /^\d+(\.\d+)?$/.test(milliseconds)) return Math.round(Number(milliseconds));
  return parseRetryAfter(headers.retryAfter, nowMs);
}

class ResponseTooLargeError extends Error {}

async function readStreamOnce(
  readStream: NonNullable<JsonPost['readStream']>,
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  call: JsonPost,
  signal: AbortSignal,
  attempt: number,
  aborted: CallErrors['aborted'],
  onPiece: () => void,
): Promise<unknown> {
  let assembled: unknown;
  try {
    assembled = await readStream(cappedChunks(body, onPiece));
  } catch (error) {
    body.destroy();
    if (signal.aborted) throw aborted(attempt);
    if (TIMEOUT_CODES.has(errorCode(error))) {
      throw new ModelCallError({
        kind: 'timeout',
        retryable: true,
        attempts: attempt,
        message: `${call.service} stopped writing its answer: nothing came for ${call.timeoutMs} ms (timeout_ms)`,
      });
    }
    if (error instanceof StreamError) {
      throw new ModelCallError({
        kind: error.retryable ? 'network' : 'bad_response',
        retryable: error.retryable,
        attempts: attempt,
        message: redactSecrets(`${call.service} ${error.message}`, call.secrets),
      });
    }
    const tooLarge = error instanceof ResponseTooLargeError;
    throw new ModelCallError({
      kind: tooLarge ? 'bad_response' : 'network',
      attempts: attempt,
      message: redactSecrets(
        tooLarge
          ? `${call.service} streamed more than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB; that is not a chat answer`
          : `the answer from ${call.service} broke off: ${error instanceof Error ? error.message : String(error)}`,
        call.secrets,
      ),
    });
  }
  return JSON.parse(redactSecrets(JSON.stringify(assembled ?? null), call.secrets)) as unknown;
}

async function* cappedChunks(body: AsyncIterable<Buffer>, onChunk: () => void): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of body) {
    onChunk();
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) throw new ResponseTooLargeError();
    yield chunk;
  }
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy();
      throw new ResponseTooLargeError();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The provider's own explanation when its error body has one (OpenAI, Anthropic, Ollama shapes), else the start of the body. */
export function errorDetail(text: string): string {
  const parsed = parseJson(text);
  if (parsed.ok && typeof parsed.value === 'object' && parsed.value !== null) {
    const body = parsed.value as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return snippet(body.error);
    if (typeof body.error === 'object' && body.error !== null) {
      const message = (body.error as { message?: unknown }).message;
      if (typeof message === 'string') return snippet(message);
    }
    if (typeof body.message === 'string') return snippet(body.message);
  }
  return text.trim() ? snippet(text) : '(empty body)';
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ERROR_DETAIL_CHARS ? `${flat.slice(0, ERROR_DETAIL_CHARS)}…` : flat;
}

/** The URL as shown in messages: never with user:password. */
export function describeEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\b/i.test(contentType.trim());
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Nothing listening and an unknown name are told apart by the socket's code, not by its message. */
function networkKindOf(code: string): FailureKind {
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown_host';
  return 'network';
}

function errorCode(error: unknown): string {
  const code =
    (error as { code?: unknown } | null)?.code ??
    (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : '';
}
