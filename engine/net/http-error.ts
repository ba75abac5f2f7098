import { z } from 'zod';
import type { Failure } from '../api/failure';
import type { Result } from '../api/result';

/** Every way `httpRequest` can refuse or fail; callers switch on `code`, people read `message`. */
export const HttpErrorCode = z.enum([
  'invalid_options',
  'invalid_url',
  'unsupported_scheme',
  'credentials_in_url',
  'host_not_allowed',
  'forbidden_address',
  'dns_failed',
  'invalid_method',
  'invalid_header',
  'invalid_body',
  'request_too_large',
  'too_many_redirects',
  'invalid_redirect',
  'connection_failed',
  'deadline_exceeded',
  'aborted',
]);
export type HttpErrorCode = z.infer<typeof HttpErrorCode>;

/** The codes of a request that was tried and did not work; every other code is the policy saying no. */
const ATTEMPT_FAILURES: ReadonlySet<HttpErrorCode> = new Set([
  'dns_failed',
  'connection_failed',
  'deadline_exceeded',
  'aborted',
]);

/** Whether the request was refused (never sent) rather than tried and failed. */
export const isRefusal = (code: HttpErrorCode): boolean => !ATTEMPT_FAILURES.has(code);

/** The failure a request error is: the policy's refusals are `refused`; a request tried says how it failed. */
export function failureOfHttpError(code: HttpErrorCode): Failure {
  switch (code) {
    case 'dns_failed':
      return { kind: 'unknown_host', retryable: true };
    case 'connection_failed':
      return { kind: 'network', retryable: true };
    case 'deadline_exceeded':
      return { kind: 'timeout', retryable: true };
    case 'aborted':
      return { kind: 'cancelled', retryable: false };
    default:
      return { kind: 'refused', retryable: false };
  }
}

export const HttpError = z.object({ code: HttpErrorCode, message: z.string() });
export type HttpError = z.infer<typeof HttpError>;

export type Checked<T> = Result<T, HttpError>;

export const checked = <T>(value: T): Checked<T> => ({ ok: true, value });

export const refused = (code: HttpErrorCode, message: string): { ok: false; error: HttpError } => ({
  ok: false,
  error: { code, message },
});

/** An error's code (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET) for a message; its text may quote values, so it is never shown. */
export function errorCodeSuffix(error: unknown): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  return /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
}
