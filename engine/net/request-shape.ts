import { z } from 'zod';
import { isCredentialHeader } from './credential-headers';
import { secretSpellings } from '../secrets/secret-spellings';
import { checked, refused, type Checked } from './http-error';

export const HttpMethod = z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
export type HttpMethod = z.infer<typeof HttpMethod>;

/** Header names as lower-case keys, values as given. */
export type RequestHeaders = Record<string, string>;

export interface RequestShape {
  method: HttpMethod;
  headers: RequestHeaders;
  body: Buffer | null;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const hasCharacter = (text: string, test: (code: number) => boolean) =>
  [...text].some((character) => test(character.charCodeAt(0)));
const isLineBreakOrNul = (code: number) => code === 0x0a || code === 0x0d || code === 0x00;
/** Tab is the only control character a header value may hold. */
const isControlExceptTab = (code: number) => (code < 0x20 && code !== 0x09) || code === 0x7f;

/**
 * Headers an agent may not set: they decide how the message is framed or routed (request
 * smuggling, virtual-host switching), and the client sets them itself.
 */
const CONNECTION_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
  'http2-settings',
]);

/** Content headers that describe a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

export function checkMethod(method: string): Checked<HttpMethod> {
  const parsed = HttpMethod.safeParse(method.trim().toUpperCase());
  if (parsed.success) return checked(parsed.data);
  return refused(
    'invalid_method',
    `method ${JSON.stringify(method.slice(0, 24))} is not allowed; use one of ${HttpMethod.options.join(', ')}`,
  );
}

/** Checks every header; messages name the header but never repeat its value. */
export function checkHeaders(headers: Readonly<Record<string, string>>): Checked<RequestHeaders> {
  const checkedHeaders: RequestHeaders = {};
  for (const [position, [name, value]] of Object.entries(headers).entries()) {
    if (!TOKEN.test(name))
      return refused(
        'invalid_header',
        `header #${position + 1} has an invalid name (letters, digits and !#$%&'*+-.^_\`|~ only)`,
      );
    const key = name.toLowerCase();
    if (CONNECTION_HEADERS.has(key))
      return refused(
        'invalid_header',
        `header '${name}' is set by the connection itself and may not be given`,
      );
    if (key in checkedHeaders) return refused('invalid_header', `header '${name}' is given twice`);
    if (typeof value !== 'string')
      return refused('invalid_header', `header '${name}' must have a text value`);
    if (hasCharacter(value, isLineBreakOrNul))
      return refused(
        'invalid_header',
        `header '${name}' contains a line break or NUL; a header value must be one line`,
      );
    if (hasCharacter(value, isControlExceptTab))
      return refused('invalid_header', `header '${name}' contains a control character`);
    checkedHeaders[key] = value;
  }
  return checked(checkedHeaders);
}

export function checkBody(
  body: string | Uint8Array | undefined,
  method: HttpMethod,
  maxBytes: number,
): Checked<Buffer | null> {
  if (body === undefined) return checked(null);
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  if ((method === 'GET' || method === 'HEAD') && bytes.length > 0)
    return refused('invalid_body', `a ${method} request cannot have a body`);
  if (bytes.length > maxBytes)
    return refused(
      'request_too_large',
      `the request body is ${bytes.length} bytes; the limit is ${maxBytes}`,
    );
  return checked(bytes);
}

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export function isRedirectStatus(status: number): status is RedirectStatus {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * The request to send to a redirect's target, following the Fetch standard: 303 turns everything
 * but HEAD into a bodiless GET, 301/302 do so for POST, 307/308 keep method and body. A hop to
 * another origin drops credential headers and every header that holds a secret, and is refused when
 * the body it would resend holds a secret (in any spelling): that body was meant for one site only.
 */
export function redirectedRequest(
  previous: RequestShape,
  status: RedirectStatus,
  crossOrigin: boolean,
  secrets: readonly string[],
): Checked<RequestShape> {
  const becomesGet =
    (status === 303 && previous.method !== 'HEAD') ||
    ((status === 301 || status === 302) && previous.method === 'POST');
  const spellings = crossOrigin
    ? secrets.flatMap((secret) => (secret === '' ? [] : [secret, ...secretSpellings(secret)]))
    : [];
  const holdsSecret = (text: string) => spellings.some((spelling) => text.includes(spelling));
  if (!becomesGet && previous.body !== null && holdsSecret(previous.body.toString('utf8')))
    return refused(
      'invalid_redirect',
      `the server asked to send the request again, body and all, to another site (${status}); the body carries a secret, so it was not sent`,
    );
  const headers: RequestHeaders = {};
  for (const [name, value] of Object.entries(previous.headers)) {
    if (becomesGet && BODY_HEADERS.includes(name)) continue;
    if (crossOrigin && (isCredentialHeader(name) || holdsSecret(value))) continue;
    headers[name] = value;
  }
  return checked(becomesGet ? { method: 'GET', headers, body: null } : { ...previous, headers });
}
