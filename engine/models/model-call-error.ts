import type { NotGranted } from '../api/grant-refusal';

export type ModelCallErrorKind =
  'http' | 'timeout' | 'network' | 'cancelled' | 'bad_response' | 'config' | 'refused';

export interface ModelCallErrorDetails {
  kind: ModelCallErrorKind;
  message: string;
  status?: number;
  /** True when the same call may succeed later (rate limits, server errors, timeouts, dropped connections). */
  retryable?: boolean;
  attempts?: number;
  /** A `config` error because the org may not use the secret or variable its model names. */
  notGranted?: NotGranted;
}

/** The only error a provider throws. Its message never contains an API key. */
export class ModelCallError extends Error {
  readonly kind: ModelCallErrorKind;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly attempts: number;
  readonly notGranted: NotGranted | null;

  constructor(details: ModelCallErrorDetails) {
    super(details.message);
    this.name = 'ModelCallError';
    this.kind = details.kind;
    this.status = details.status;
    this.retryable = details.retryable ?? false;
    this.attempts = details.attempts ?? 0;
    this.notGranted = details.notGranted ?? null;
  }
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
