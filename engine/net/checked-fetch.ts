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
}

/** A fetch for a long-lived client (an MCP server over HTTP), and a way to close what it opened. */
export interface CheckedFetch {
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
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

/**
 * A `fetch` that takes the SSRF-safe path of http_request (docs/ARCHITECTURE.md, “Tools”) for each
 * request: the URL and scheme checked, the host resolved once, every address classified (this computer
 * and private networks only for the org's private hosts), the socket pinned to the checked address,
 * and no redirect followed. Unlike httpRequest it streams the body (an MCP server answers with
 * server-sent events), so it has no byte cap; the pinned connections are closed by `close`.
 */
export function checkedFetch(options: CheckedFetchOptions): CheckedFetch {
  const privateHosts = parseHostPatterns(options.allowPrivateHosts);
  // One pinned agent per checked destination, reused while the host keeps resolving to it.
  const agents = new Map<string, Agent>();
  const lookup = options.lookup ?? systemLookup;
  const classify = options.classifyAddress ?? classifyAddress;
  return {
    async fetch(input, init) {
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
      return response as unknown as Response;
    },
    async close() {
      const open = [...agents.values()];
      agents.clear();
      await Promise.allSettled(open.map((agent) => agent.destroy()));
    },
  };
}
