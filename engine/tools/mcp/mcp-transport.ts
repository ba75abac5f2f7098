import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { httpTransportOf, type McpHttpServer } from './mcp-config';

/** One way to reach a server, made afresh for each try (a transport starts once). */
export interface HttpTransportTry {
  kind: 'stdio' | 'streamable-http' | 'sse';
  create: () => Transport;
}

/**
 * The transports to try for a server at a URL, in order: the one its `type` names, or (no `type`)
 * Streamable HTTP and then legacy SSE, as the MCP specification's backwards-compatibility section
 * tells clients. Both send every request, the SSE stream's GET and its POSTs alike, through `fetch`
 * (the SSRF-checked, size-capped one).
 */
export function httpTransportTries(
  server: McpHttpServer,
  options: { headers: Record<string, string>; fetch: FetchLike; authProvider?: OAuthClientProvider },
): HttpTransportTry[] {
  const url = new URL(server.url);
  const common = {
    fetch: options.fetch,
    requestInit: { headers: options.headers },
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  };
  const streamable: HttpTransportTry = {
    kind: 'streamable-http',
    create: () => new StreamableHTTPClientTransport(url, common),
  };
  const sse: HttpTransportTry = { kind: 'sse', create: () => new SSEClientTransport(url, common) };
  const kind = httpTransportOf(server);
  return kind === 'either' ? [streamable, sse] : kind === 'sse' ? [sse] : [streamable];
}

/**
 * The HTTP status a server answered with when it would not speak the transport tried (null for any
 * other failure: refused by the network checks, unreachable, timed out).
 */
export function refusedStatus(error: unknown): number | null {
  if (error instanceof StreamableHTTPError || error instanceof SseError)
    return typeof error.code === 'number' && error.code >= 400 ? error.code : null;
  // The SSE transport's POSTs fail with a plain Error naming the status.
  const posted =
    error instanceof Error ? /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error.message) : null;
  return posted ? Number(posted[1]) : null;
}

/**
 * Whether a server without a `type` should be tried over legacy SSE after Streamable HTTP failed: it
 * answered the initialize POST with a 4xx (a legacy server has no POST at its URL: 404 or 405). A 401
 * asks for sign-in, which is no sign of an older server.
 */
export function triesLegacySseNext(error: unknown): boolean {
  const status = refusedStatus(error);
  return status !== null && status >= 400 && status < 500 && status !== 401;
}

/**
 * What a server answered that was not MCP, in words: an HTTP error (its status), or an answer of another
 * kind (a web page where MCP or an event stream was expected). Null for any other failure, whose own
 * message says what happened.
 */
function notMcpAnswer(error: unknown): string | null {
  const status = refusedStatus(error);
  if (status !== null) return status === 401 ? null : `it answered HTTP ${status}`;
  const message = error instanceof Error ? error.message : '';
  const other = /Unexpected content type: ([^\s;]+)/.exec(message);
  if (error instanceof StreamableHTTPError && other) return `it answered with ${other[1]}, not MCP`;
  if (error instanceof SseError && /Invalid content type/.test(message))
    return 'it answered, but not with an event stream';
  return null;
}

/**
 * Why a server at a URL could not be reached, in plain words, when it answered something that is not
 * MCP: what it sent back (often a web page, "Cannot POST /sse") is never shown. Null when the error is
 * not such an answer (its own message says what happened).
 */
export function describeHttpRefusal(
  error: unknown,
  url: string,
  tried: readonly HttpTransportTry[],
): string | null {
  const answered = notMcpAnswer(error);
  if (answered === null) return null;
  const how =
    tried.length > 1
      ? 'over Streamable HTTP or legacy SSE'
      : tried[0]?.kind === 'sse'
        ? 'over legacy SSE'
        : 'over Streamable HTTP';
  return `the address ${url} does not answer as an MCP server ${how} (${answered}); check the address and the "type" of its entry`;
}
