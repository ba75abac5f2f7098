import {
  httpRequest,
  type HttpRequest,
  type HttpRequestOptions,
  type HttpResult,
} from '../../net/http-request';

/** One request a composed tool sends, with the limits its definition sets. */
export interface ComposedHttpCall {
  request: HttpRequest;
  allowedHosts: 'any' | readonly string[];
  /** Values to redact from everything returned and to drop on cross-origin redirects. */
  secretValues: readonly string[];
  deadlineMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
}

/** How composed tools reach the network; production uses the SSRF-safe primitive (engine/net). */
export type HttpPrimitive = (call: ComposedHttpCall) => Promise<HttpResult>;

/** Org-wide network settings that are not part of a tool's definition. */
export type NetworkSettings = Pick<
  HttpRequestOptions,
  | 'allowPrivateHosts'
  | 'lookup'
  | 'classifyAddress'
  | 'trustedCertificates'
  | 'maxRedirects'
  | 'maxRequestBytes'
>;

/** The SSRF-safe `httpRequest` (engine/net) with the org's network settings. */
export function netHttpPrimitive(settings: NetworkSettings = {}): HttpPrimitive {
  return (call) =>
    httpRequest(call.request, {
      ...settings,
      allowedHosts: call.allowedHosts,
      secretValues: call.secretValues,
      deadlineMs: call.deadlineMs,
      maxResponseBytes: call.maxResponseBytes,
      ...(call.signal ? { signal: call.signal } : {}),
    });
}
