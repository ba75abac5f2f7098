import type { Failure, FailureKind } from '../api/failure';
import type { NotGranted } from '../api/grant-refusal';

export interface ModelCallErrorDetails {
  /** Set where the failure is born; an HTTP answer's kind comes from kindOfHttpStatus. */
  kind: FailureKind;
  message: string;
  status?: number;
  /** True when the same call may succeed later (rate limits, server errors, timeouts, dropped connections). */
  retryable?: boolean;
  attempts?: number;
  /** A `not_granted` error: the secret or variable its model names that the org may not use. */
  notGranted?: NotGranted | null;
  /** For `missing_key`: the model, its service, and the provider's own variable the org may not read. */
  model?: string;
  service?: string;
  refusedVariable?: string;
}

/** The only error a provider throws. Its message never contains an API key. */
export class ModelCallError extends Error {
  readonly kind: FailureKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly attempts: number;
  readonly notGranted: NotGranted | null;
  /** What the timeline keeps of it: everything but the message. */
  readonly failure: Failure;

  constructor(details: ModelCallErrorDetails) {
    super(details.message);
    this.name = 'ModelCallError';
    this.kind = details.kind;
    this.status = details.status;
    this.retryable = details.retryable ?? false;
    this.attempts = details.attempts ?? 0;
    this.notGranted = details.notGranted ?? null;
    const grant =
      details.notGranted ??
      (details.refusedVariable ? { kind: 'environment' as const, name: details.refusedVariable } : null);
    this.failure = {
      kind: details.kind,
      status: details.status ?? null,
      retryable: this.retryable,
      ...(details.model !== undefined ? { model: details.model } : {}),
      ...(details.service !== undefined ? { service: details.service } : {}),
      ...(grant ? { grant: { kind: grant.kind, name: grant.name } } : {}),
    };
  }
}

/** The one mapping from whatever a model call threw to the failure the timeline keeps. */
export function failureOfModelCall(error: unknown): Failure {
  return isModelCallError(error) ? error.failure : { kind: 'unexpected', status: null, retryable: false };
}

export function isModelCallError(error: unknown): error is ModelCallError {
  return error instanceof ModelCallError;
}

/** Replaces every occurrence of each secret with a marker, so no message can carry a key. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) {
    if (secret.length > 0) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}
