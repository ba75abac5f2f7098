import { request as undiciRequest, type Dispatcher } from 'undici';
import { z } from 'zod';
import type { Result } from '../api/result';
import { classifyAddress, type AddressClassifier } from './address-policy';
import { discardBody, readCappedBody } from './capped-body';
import { checked, errorCodeSuffix, refused, type Checked, type HttpError } from './http-error';
import { systemLookup, type HostLookup } from './host-lookup';
import { describeHostPatternIssues, parseHostPatterns, type HostPattern } from './host-patterns';
import { pinnedAgent } from './pinned-agent';
import { describeUrl, redactBytes, redactText } from './redact';
import {
  checkBody,
  checkHeaders,
  checkMethod,
  isRedirectStatus,
  redirectedRequest,
  type RequestShape,
} from './request-shape';
import {
  checkTarget,
  parseTargetUrl,
  resolveDestination,
  type Destination,
  type RequestTarget,
  type TargetPolicy,
} from './request-target';

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
}

export const HttpLimits = z.object({
  /** One deadline over everything: DNS, connecting, headers and body, across every redirect. */
  deadlineMs: z
    .number()
    .int()
    .positive()
    .max(10 * 60_000)
    .default(30_000),
  maxRedirects: z.number().int().nonnegative().max(20).default(3),
  maxRequestBytes: z
    .number()
    .int()
    .nonnegative()
    .default(1024 * 1024),
  maxResponseBytes: z
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
});
export type HttpLimits = z.infer<typeof HttpLimits>;

export interface HttpRequestOptions extends Partial<HttpLimits> {
  /** `allowed_hosts` patterns (see host-patterns.ts), or 'any' for every public host. */
  allowedHosts: 'any' | readonly string[];
  /**
   * Exact hosts the org lets resolve to its own machine or private networks (`ollama.local`,
   * `localhost:11434`, `192.168.1.20`). Never wildcards. They must still be allowed hosts.
   */
  allowPrivateHosts?: readonly string[];
  lookup?: HostLookup;
  /** Replaces the address classifier; tests use it to treat a chosen loopback address as public. */
  classifyAddress?: AddressClassifier;
  /** Values (keys, tokens) redacted from everything returned, and dropped on cross-origin redirects. */
  secretValues?: readonly string[];
  /** PEM certificates to trust besides Node's bundled roots. */
  trustedCertificates?: readonly string[];
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The body was cut off at maxResponseBytes. */
  truncated: boolean;
  /** The URL that answered, after redirects, with secrets redacted. */
  url: string;
  redirects: number;
}

/** The response, or why there is none. */
export type HttpResult = Result<HttpResponse, HttpError>;

const DEFAULT_USER_AGENT = 'LeMMing-Desktop';

/**
 * Makes one HTTP request on an agent's behalf, refusing anything that could reach the user's
 * machine or networks (docs/ARCHITECTURE.md, “Tools”). Never throws; every refusal and failure is an error value,
 * and nothing returned contains a secret value.
 *
 * Per hop: the URL is parsed by the WHATWG parser, so IPv4-ish hosts (`0x7f.1`, `2130706433`,
 * `0177.0.0.1`, `127.1`) are normalised to the dotted quad a browser would reach and then
 * classified like any IP; a resolver answer that is not a canonical IP is refused. The scheme,
 * userinfo and allowed_hosts are checked, the name is resolved once, every address is classified,
 * and the connection is pinned to a checked address. Redirects are followed by hand, each hop
 * checked from scratch; one deadline covers DNS, connect, headers and body of every hop.
 */
export async function httpRequest(request: HttpRequest, options: HttpRequestOptions): Promise<HttpResult> {
  const secrets = (options.secretValues ?? []).filter((secret) => secret !== '');
  let result: HttpResult;
  try {
    result = await performRequest(request, options, secrets);
  } catch (error) {
    result = {
      ok: false,
      error: {
        code: 'connection_failed',
        message: `the request failed unexpectedly${errorCodeSuffix(error)}`,
      },
    };
  }
  return redactResult(result, secrets);
}

interface Settings {
  limits: HttpLimits;
  policy: TargetPolicy;
  lookup: HostLookup;
  classify: AddressClassifier;
  trustedCertificates?: readonly string[];
}

async function performRequest(
  request: HttpRequest,
  options: HttpRequestOptions,
  secrets: readonly string[],
): Promise<HttpResult> {
  const settings = checkOptions(options);
  if (!settings.ok) return settings;
  const shape = checkShape(request, settings.value.limits.maxRequestBytes);
  if (!shape.ok) return shape;
  const firstUrl = parseTargetUrl(request.url);
  if (!firstUrl.ok) return prefixed(firstUrl, 'the URL');

  const deadline = startDeadline(settings.value.limits.deadlineMs, options.signal);
  try {
    return await followRedirects(firstUrl.value, shape.value, settings.value, secrets, deadline);
  } finally {
    deadline.dispose();
  }
}

async function followRedirects(
  firstUrl: URL,
  firstShape: RequestShape,
  settings: Settings,
  secrets: readonly string[],
  deadline: Deadline,
): Promise<HttpResult> {
  let url = firstUrl;
  let shape = firstShape;
  for (let hop = 0; ; hop += 1) {
    const at = hop === 0 ? '' : `redirect ${hop} to ${describeUrl(url)}: `;
    const target = checkTarget(url, settings.policy);
    if (!target.ok) return prefixed(target, at);
    const destination = await resolveDestination(
      target.value,
      settings.lookup,
      settings.classify,
      deadline.signal,
    );
    if (deadline.signal.aborted) return deadline.error('while resolving the host');
    if (!destination.ok) return prefixed(destination, at);

    const exchanged = await exchange(target.value, destination.value, shape, settings, deadline);
    if (!exchanged.ok) return prefixed(exchanged, at);
    const { response, release } = exchanged.value;
    try {
      const location = headerValue(response.headers.location);
      if (!isRedirectStatus(response.statusCode) || location === undefined) {
        return await finalResponse(response, url, hop, settings.limits.maxResponseBytes, deadline);
      }
      discardBody(response.body);
      if (hop >= settings.limits.maxRedirects)
        return refused('too_many_redirects', `more than ${settings.limits.maxRedirects} redirects`);
      const next = parseTargetUrl(location, url);
      if (!next.ok)
        return refused('invalid_redirect', `redirect ${hop + 1}: the Location header is not a valid URL`);
      const resent = redirectedRequest(shape, response.statusCode, next.value.origin !== url.origin, secrets);
      if (!resent.ok) return prefixed(resent, `redirect ${hop + 1} to ${describeUrl(next.value)}: `);
      shape = resent.value;
      url = next.value;
    } finally {
      await release();
    }
  }
}

interface Exchange {
  response: Dispatcher.ResponseData;
  release: () => Promise<void>;
}

async function exchange(
  target: RequestTarget,
  destination: Destination,
  shape: RequestShape,
  settings: Settings,
  deadline: Deadline,
): Promise<Checked<Exchange>> {
  const agent = pinnedAgent(target, destination, {
    connectTimeoutMs: settings.limits.deadlineMs,
    ...(settings.trustedCertificates ? { trustedCertificates: settings.trustedCertificates } : {}),
  });
  const release = () => agent.destroy().catch(() => undefined);
  try {
    const response = await undiciRequest(target.url, {
      dispatcher: agent,
      method: shape.method,
      headers: { 'user-agent': DEFAULT_USER_AGENT, ...shape.headers },
      body: shape.body,
      signal: deadline.signal,
    });
    return checked({ response, release });
  } catch (error) {
    await release();
    if (deadline.signal.aborted) return deadline.error(`before ${target.host} answered`);
    return refused(
      'connection_failed',
      `could not get an answer from ${target.host}${errorCodeSuffix(error)}`,
    );
  }
}

async function finalResponse(
  response: Dispatcher.ResponseData,
  url: URL,
  redirects: number,
  maxResponseBytes: number,
  deadline: Deadline,
): Promise<HttpResult> {
  const body = await readCappedBody(response.body, maxResponseBytes);
  if (!body.ok) {
    const after = `after ${body.error.receivedBytes} bytes of the response body`;
    if (deadline.signal.aborted) return deadline.error(after);
    return refused('connection_failed', `the connection broke ${after}${errorCodeSuffix(body.error.cause)}`);
  }
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) headers[name] = value;
  return {
    ok: true,
    value: {
      status: response.statusCode,
      headers,
      body: body.value.bytes,
      truncated: body.value.truncated,
      url: url.href,
      redirects,
    },
  };
}

function checkOptions(options: HttpRequestOptions): Checked<Settings> {
  const limits = HttpLimits.safeParse({
    deadlineMs: options.deadlineMs,
    maxRedirects: options.maxRedirects,
    maxRequestBytes: options.maxRequestBytes,
    maxResponseBytes: options.maxResponseBytes,
  });
  if (!limits.success)
    return refused(
      'invalid_options',
      limits.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
    );
  let allowedHosts: 'any' | HostPattern[] = 'any';
  if (options.allowedHosts !== 'any') {
    const parsed = parseHostPatterns(options.allowedHosts);
    if (!parsed.ok)
      return refused('invalid_options', describeHostPatternIssues('allowed_hosts', parsed.error));
    allowedHosts = parsed.value;
  }
  const privateHosts = parseHostPatterns(options.allowPrivateHosts ?? []);
  if (!privateHosts.ok)
    return refused('invalid_options', describeHostPatternIssues('allow_private_hosts', privateHosts.error));
  const wildcard = privateHosts.value.findIndex((pattern) => pattern.kind !== 'exact');
  if (wildcard >= 0)
    return refused(
      'invalid_options',
      `allow_private_hosts[${wildcard}]: name each private host exactly; wildcards are not allowed`,
    );
  return checked({
    limits: limits.data,
    policy: { allowedHosts, privateHosts: privateHosts.value },
    lookup: options.lookup ?? systemLookup,
    classify: options.classifyAddress ?? classifyAddress,
    ...(options.trustedCertificates ? { trustedCertificates: options.trustedCertificates } : {}),
  });
}

function checkShape(request: HttpRequest, maxRequestBytes: number): Checked<RequestShape> {
  const method = checkMethod(request.method);
  if (!method.ok) return method;
  const headers = checkHeaders(request.headers ?? {});
  if (!headers.ok) return headers;
  const body = checkBody(request.body, method.value, maxRequestBytes);
  if (!body.ok) return body;
  return checked({ method: method.value, headers: headers.value, body: body.value });
}

interface Deadline {
  signal: AbortSignal;
  error(when: string): { ok: false; error: HttpError };
  dispose(): void;
}

/** One signal for the total deadline and the caller's cancel; `error` says which one fired. */
function startDeadline(deadlineMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, deadlineMs);
  const onCallerAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    error: (when) =>
      expired
        ? refused('deadline_exceeded', `no complete answer within ${deadlineMs} ms (stopped ${when})`)
        : refused('aborted', `the request was cancelled (${when})`),
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    },
  };
}

function prefixed(result: { ok: false; error: HttpError }, at: string): { ok: false; error: HttpError } {
  if (at === '') return result;
  const separator = at.endsWith(': ') ? '' : ' ';
  return { ok: false, error: { ...result.error, message: `${at}${separator}${result.error.message}` } };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function redactResult(result: HttpResult, secrets: readonly string[]): HttpResult {
  if (!result.ok)
    return { ok: false, error: { ...result.error, message: redactText(result.error.message, secrets) } };
  if (secrets.length === 0) return result;
  const response = result.value;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers))
    headers[name] = Array.isArray(value)
      ? value.map((item) => redactText(item, secrets))
      : redactText(value, secrets);
  return {
    ok: true,
    value: {
      ...response,
      headers,
      url: redactText(response.url, secrets),
      body: redactBytes(response.body, secrets, response.truncated),
    },
  };
}
