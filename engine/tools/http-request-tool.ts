import type { Redaction } from '../secrets/redactor';
import { z } from 'zod';
import { isCredentialHeader } from '../net/credential-headers';
import { failureOfHttpError, isRefusal } from '../net/http-error';
import {
  httpRequest,
  type HttpLimits,
  type HttpRequestOptions,
  type HttpResponse,
} from '../net/http-request';
import { REDACTED } from '../net/redact';
import type { OrgPolicy } from '../org/policy-file';
import { toolFailure, toolSuccess, type ToolResult } from './tool-result';
import type { ToolContext, ToolSpec } from './tool-spec';

/** What the org lets agents reach; from policy.json `network` (see networkAccessFromPolicy). */
export interface NetworkAccess {
  enabled: boolean;
  /** `allowed_hosts` patterns, or 'any' public host. */
  allowedHosts: 'any' | readonly string[];
  /** Exact hosts that may resolve to the user's own machine or networks (a local Ollama, a NAS). */
  privateHosts: readonly string[];
}

/** The org policy's network section as the tool needs it. The org names no allowed hosts: any public one. */
export function networkAccessFromPolicy(policy: OrgPolicy): NetworkAccess {
  return { enabled: policy.network.enabled, allowedHosts: 'any', privateHosts: policy.network.private_hosts };
}

/** How requests leave the machine; tests inject a resolver and classifier for their loopback servers. */
export type HttpTransport = Pick<HttpRequestOptions, 'lookup' | 'classifyAddress' | 'trustedCertificates'>;

/** Agents read answers as text in their context, so the tool keeps less than the primitive's default. */
export const DEFAULT_TOOL_LIMITS: HttpLimits = {
  deadlineMs: 30_000,
  maxRedirects: 3,
  maxRequestBytes: 1024 * 1024,
  maxResponseBytes: 256 * 1024,
};

const text = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'required' : `must be ${what}`) });

export const HttpToolArgs = z.object({
  method: text('text, such as "GET"'),
  url: text('text, an absolute http:// or https:// URL'),
  headers: z.record(z.string(), text('text')).optional(),
  body: text('text').optional(),
});
export type HttpToolArgs = z.infer<typeof HttpToolArgs>;

export interface HttpToolRun {
  network: NetworkAccess;
  limits?: Partial<HttpLimits>;
  /** Values redacted from the result; composed tools pass the secrets they put in headers or body. */
  secretValues?: readonly string[];
  /** The engine's redaction: a body cut at the byte cap is redacted with it, edge included. */
  redaction: Redaction;
  transport?: HttpTransport;
  signal?: AbortSignal;
}

/**
 * Sends one request through the SSRF-safe primitive and words the outcome for an agent: any HTTP
 * answer (4xx and 5xx too) is a success whose output is JSON with status, headers (credential
 * headers hidden), body text and the final URL; refusals and failures are errors. Never throws.
 */
export async function runHttpRequest(args: HttpToolArgs, run: HttpToolRun): Promise<ToolResult> {
  if (!run.network.enabled)
    return toolFailure(
      'Network access is off for this organization. The user can turn it on in the organization policy (network.enabled).',
      { kind: 'refused', retryable: false },
    );
  const result = await httpRequest(
    {
      method: args.method,
      url: args.url,
      ...(args.headers ? { headers: args.headers } : {}),
      ...(args.body !== undefined ? { body: args.body } : {}),
    },
    {
      ...DEFAULT_TOOL_LIMITS,
      ...run.limits,
      ...run.transport,
      allowedHosts: run.network.allowedHosts,
      allowPrivateHosts: run.network.privateHosts,
      secretValues: run.secretValues ?? [],
      ...(run.signal ? { signal: run.signal } : {}),
    },
  );
  if (!result.ok) {
    const { code, message } = result.error;
    return toolFailure(
      `${isRefusal(code) ? 'Request refused' : 'Request failed'} (${code}): ${message}`,
      failureOfHttpError(code),
    );
  }
  return toolSuccess(JSON.stringify(describeResponse(result.value, run.redaction)));
}

function describeResponse(response: HttpResponse, redaction: Redaction) {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(response.headers))
    headers[name] = isCredentialHeader(name) ? REDACTED : value;
  const contentType = String(response.headers['content-type'] ?? '');
  const text = bodyText(response.body, contentType);
  return {
    status: response.status,
    url: response.url,
    redirects: response.redirects,
    headers,
    ...(text === null
      ? {
          body: null,
          body_note: `binary content (${response.body.length} bytes${contentType ? `, ${contentType}` : ''}) is not shown`,
        }
      : { body: response.truncated ? redaction.redactCut(text) : text }),
    truncated: response.truncated,
  };
}

const TEXTUAL =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded|yaml|x-yaml)\b)/i;

/** The body as text, or null when it is binary. A multi-byte character cut by the byte cap is left out. */
function bodyText(body: Buffer, contentType: string): string | null {
  const textual = TEXTUAL.test(contentType);
  if (!textual && body.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body, { stream: true });
  } catch {
    return textual ? new TextDecoder('utf-8').decode(body, { stream: true }) : null;
  }
}

export interface HttpRequestToolOptions {
  /** Read at every call, so a policy change applies to the next request. */
  network: (context: ToolContext) => NetworkAccess;
  limits?: Partial<HttpLimits>;
  transport?: HttpTransport;
}

/** The web request tool as the person reads it. */
export const HTTP_REQUEST_TOOL_TITLE = 'Make a web request';

/** The `http_request {method, url, headers?, body?}` primitive as an agent tool of kind `network`. */
export function createHttpRequestTool(options: HttpRequestToolOptions): ToolSpec {
  const limits = { ...DEFAULT_TOOL_LIMITS, ...options.limits };
  return {
    name: 'http_request',
    kind: 'network',
    title: HTTP_REQUEST_TOOL_TITLE,
    definition: {
      name: 'http_request',
      description: [
        'Send one HTTP or HTTPS request to a public web address and get the answer back as JSON:',
        'status, headers, body (text), truncated and the final url.',
        `Redirects are followed (at most ${limits.maxRedirects}); the whole request must finish within ${limits.deadlineMs / 1000} s`,
        `and bodies over ${limits.maxResponseBytes} bytes are cut off.`,
        'Addresses on this computer or its private networks are refused unless the organization allows them by name,',
        'and credentials may not be written into the URL; send them in a header.',
      ].join(' '),
      parameters: {
        type: 'object',
        properties: {
          method: { type: 'string', enum: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] },
          url: { type: 'string', description: 'An absolute http:// or https:// URL.' },
          headers: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'Request headers by name, such as {"Accept": "application/json"}.',
          },
          body: { type: 'string', description: 'The request body, for POST, PUT, PATCH and DELETE.' },
        },
        required: ['method', 'url'],
        additionalProperties: false,
      },
    },
    async run(rawArgs, context) {
      const args = HttpToolArgs.safeParse(rawArgs ?? {});
      if (!args.success)
        return toolFailure(
          `Invalid arguments for http_request: ${args.error.issues.map((issue) => `${issue.path.join('.') || 'args'}: ${issue.message}`).join('; ')}`,
        );
      let network: NetworkAccess;
      try {
        network = options.network(context);
      } catch (error) {
        return toolFailure(
          `http_request is unavailable: the network policy could not be read (${error instanceof Error ? error.message : String(error)})`,
        );
      }
      return runHttpRequest(args.data, {
        network,
        limits,
        redaction: context.redaction,
        ...(options.transport ? { transport: options.transport } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      });
    },
  };
}
