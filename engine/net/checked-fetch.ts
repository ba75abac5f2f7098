import { fetch as undiciFetch, type Agent } from 'undici';
import { classifyAddress, type AddressClassifier } from './address-policy';
import { systemLookup, type HostLookup } from './host-lookup';
import { describeHostPatternIssues, parseHostPatterns } from './host-patterns';
import { pinnedAgent } from './pinned-agent';
import { checkTarget, parseTargetUrl, resolveDestination } from './request-target';

export interface CheckedFetchOptions {
  /** Exact hosts the org lets resolve to this computer or its private networks (network.private_hosts). */
  allowPrivateHosts: readonly string[];
  lookup?: HostLookup;
  classifyAddress?: AddressClassifier;
  connectTimeoutMs?: number;
  /** The most one answer may be: a JSON body, or one server-sent event (default 16 MiB). */
  maxAnswerBytes?: number;
}

/** What the caller of one request is told about its answer while it streams. */
export interface AnswerHooks {
  /** The answer went past `maxAnswerBytes`: its body fails with `error`, and nothing more of it is read. */
  onTooLarge?: (error: AnswerTooLargeError) => void;
}

/** A fetch for a long-lived client (an MCP server over HTTP), and a way to close what it opened. */
export interface CheckedFetch {
  fetch: (url: string | URL, init?: RequestInit, hooks?: AnswerHooks) => Promise<Response>;
  close(): Promise<void>;
}

/** Thrown (fetch's way) when a request is refused before any connection is made. */
export class RefusedRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'RefusedRequestError';
  }
}

const MIB = 1024 * 1024;
export const DEFAULT_MAX_ANSWER_BYTES = 16 * MIB;

/** An answer went past the byte cap: it was stopped before more of it was held in memory. */
export class AnswerTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(
      `the server's answer went past ${maxBytes / MIB} MB and was stopped (an answer may be at most ${maxBytes / MIB} MB)`,
    );
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * A `fetch` that takes the SSRF-safe path of http_request (docs/ARCHITECTURE.md, “Tools”) for each
 * request: the URL and scheme checked, the host resolved once, every address classified (this computer
 * and private networks only for the org's private hosts), the socket pinned to the checked address,
 * and no redirect followed. Unlike httpRequest it streams the body (an MCP server answers with
 * server-sent events, a stream that may stay open for hours), so its cap is per answer: a JSON body,
 * or one event of a stream, at most `maxAnswerBytes`, counted as the bytes arrive, so an endless
 * answer costs no more than the cap. The pinned connections are closed by `close`.
 */
export function checkedFetch(options: CheckedFetchOptions): CheckedFetch {
  const privateHosts = parseHostPatterns(options.allowPrivateHosts);
  // One pinned agent per checked destination, reused while the host keeps resolving to it.
  const agents = new Map<string, Agent>();
  const lookup = options.lookup ?? systemLookup;
  const classify = options.classifyAddress ?? classifyAddress;
  return {
    async fetch(input, init, hooks) {
      if (!privateHosts.ok)
        throw new RefusedRequestError(
          'invalid_options',
          describeHostPatternIssues('network.private_hosts', privateHosts.error),
        );
      const url = parseTargetUrl(String(input));
      if (!url.ok) throw new RefusedRequestError(url.error.code, `the URL ${url.error.message}`);
      const target = checkTarget(url.value, { allowedHosts: 'any', privateHosts: privateHosts.value });
      if (!target.ok) throw new RefusedRequestError(target.error.code, target.error.message);
      const signal = init?.signal ?? new AbortController().signal;
      const destination = await resolveDestination(target.value, lookup, classify, signal);
      if (!destination.ok) throw new RefusedRequestError(destination.error.code, destination.error.message);
      const key = `${target.value.url.protocol}//${target.value.host}:${target.value.port}@${destination.value.address}`;
      let agent = agents.get(key);
      if (!agent) {
        agent = pinnedAgent(target.value, destination.value, {
          connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
          // An MCP server keeps a stream of server-sent events open while requests are posted beside it.
          connections: 8,
        });
        agents.set(key, agent);
      }
      const response = await undiciFetch(url.value, {
        ...(init as object),
        redirect: 'manual',
        dispatcher: agent,
      } as Parameters<typeof undiciFetch>[1]);
      if (response.status >= 300 && response.status < 400)
        throw new RefusedRequestError(
          'redirect_refused',
          `the server answered with a redirect (${response.status}), which is not followed`,
        );
      return cappedAnswer(
        response as unknown as Response,
        options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
        hooks?.onTooLarge,
      );
    },
    async close() {
      const open = [...agents.values()];
      agents.clear();
      await Promise.allSettled(open.map((agent) => agent.destroy()));
    },
  };
}

/** Statuses whose response has no body (a Response cannot be made with one). */
const BODILESS = new Set([101, 204, 205, 304]);

/** The response with its body counted as it streams and failed past the cap (see `checkedFetch`). */
function cappedAnswer(
  response: Response,
  maxBytes: number,
  onTooLarge: ((error: AnswerTooLargeError) => void) | undefined,
): Response {
  if (!response.body || BODILESS.has(response.status)) return response;
  const eventStream = (response.headers.get('content-type') ?? '')
    .toLowerCase()
    .includes('text/event-stream');
  const counter = eventStream ? eventSizes() : totalSize();
  const capped = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (counter(chunk) > maxBytes) {
          const error = new AnswerTooLargeError(maxBytes);
          onTooLarge?.(error);
          controller.error(error);
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(capped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Counts every byte of the body. */
function totalSize(): (chunk: Uint8Array) => number {
  let bytes = 0;
  return (chunk) => (bytes += chunk.byteLength);
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Counts the bytes of the server-sent event being read (an event ends at a blank line, after LF, CR
 * or CRLF line ends): what a parser holds before it can hand the event on.
 */
function eventSizes(): (chunk: Uint8Array) => number {
  let eventBytes = 0;
  let lineBytes = 0;
  let afterCR = false;
  return (chunk) => {
    let largest = eventBytes;
    for (const byte of chunk) {
      if (byte === LF && afterCR) {
        afterCR = false;
        continue;
      }
      afterCR = byte === CR;
      if (byte === LF || byte === CR) {
        if (lineBytes === 0) eventBytes = 0;
        lineBytes = 0;
        continue;
      }
      lineBytes += 1;
      eventBytes += 1;
      if (eventBytes > largest) largest = eventBytes;
    }
    return largest;
  };
}
