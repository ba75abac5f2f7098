import { z } from 'zod';

/**
 * What went wrong, as the engine knows it where the failure is born (docs/ARCHITECTURE.md, “Failures
 * as typed data”): a provider's or a tool's call, a model that is not set up, a file that could not be
 * written. The one list of kinds; the words a person reads are chosen from it (failure-words.ts),
 * never from a message's text.
 */
export const FailureKind = z.enum([
  /** The connection broke or could not be made for another reason than the two below. */
  'network',
  /** Nothing listens at the server's address (ECONNREFUSED). */
  'connection_refused',
  /** The server's name is not known (ENOTFOUND, EAI_AGAIN). */
  'unknown_host',
  'timeout',
  'cancelled',
  /** The server refused the key (HTTP 401, 403). */
  'auth',
  /** HTTP 404 or 405: no such model or address. */
  'not_found',
  /** HTTP 429 or 402: too many requests, or no quota left. */
  'rate_limit',
  /** HTTP 5xx. */
  'server',
  /** Any other HTTP 4xx. */
  'bad_request',
  /** The server answered with something that is not an answer (not JSON, too large, cut). */
  'bad_response',
  /** The model needs an API key and has none. */
  'missing_key',
  /** The org names a secret or variable the person has not granted it. */
  'not_granted',
  /** The model is not set up otherwise: not in models.json, no server address, a mistake in its entry. */
  'model_setup',
  /** models.json cannot be read at all, so no model can be called. */
  'models_file_broken',
  /** The engine would not make the call (a prompt a program could read as an option). */
  'refused',
  /** A committed turn's file could not be written. */
  'unwritable',
  'unexpected',
]);
export type FailureKind = z.infer<typeof FailureKind>;

export const Failure = z.looseObject({
  kind: FailureKind,
  /** The HTTP status, when the server answered with one. */
  status: z.int().nullable().optional(),
  /** Whether the same call may succeed later (the retry decision made where it failed). */
  retryable: z.boolean().optional(),
  /** The model's key and its service, for `missing_key` and `not_granted`: `gpt-4o`, `OpenAI`. */
  model: z.string().optional(),
  service: z.string().optional(),
  /**
   * `not_granted`: what the org may not use. `missing_key`: the variable a provider's own tools read
   * (OPENAI_API_KEY), when it may be set on this computer but the org may not read it.
   */
  grant: z.looseObject({ kind: z.enum(['secret', 'environment']), name: z.string() }).optional(),
  /** `unwritable`: the folder, relative to the org, and what the disk said. */
  folder: z.string().optional(),
  detail: z.string().optional(),
});
export type Failure = z.infer<typeof Failure>;

/** The one mapping from an HTTP status to a kind (codex-rs's `to_codex_protocol_error`). */
export function kindOfHttpStatus(status: number): FailureKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 405) return 'not_found';
  if (status === 402 || status === 429) return 'rate_limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** As the official OpenAI and Anthropic SDKs decide when the server does not say: 408, 409, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A server's error answer as a failure: its kind, its status and whether asking again may help. */
export function failureOfHttpStatus(status: number): Failure {
  return { kind: kindOfHttpStatus(status), status, retryable: isRetryableStatus(status) };
}

/** The kinds fixed by setting the model up, not by a call that succeeds later. */
export function isModelSetupFailure(kind: FailureKind): boolean {
  return (
    kind === 'missing_key' ||
    kind === 'not_granted' ||
    kind === 'model_setup' ||
    kind === 'models_file_broken'
  );
}
