/**
 * Header names that carry credentials, lower-case. Request headers with these names are dropped on
 * cross-origin redirects; response headers with these names are hidden from agents.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'cookie2',
  'set-cookie',
  'set-cookie2',
  'www-authenticate',
  'proxy-authenticate',
  'x-api-key',
  'x-apikey',
  'api-key',
  'apikey',
  'x-auth-token',
  'x-access-token',
  'x-access-key',
  'x-secret-key',
  'x-session-token',
  'x-session-id',
  'x-csrf-token',
  'x-xsrf-token',
  'x-amz-security-token',
  'x-goog-api-key',
  'x-goog-iam-authorization-token',
  'token',
]);

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}
