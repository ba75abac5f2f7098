import { rootCertificates } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import type { Destination, RequestTarget } from './request-target';

export interface PinnedAgentOptions {
  connectTimeoutMs: number;
  /** PEM certificates trusted in addition to Node's bundled roots (a company CA, or a test CA). */
  trustedCertificates?: readonly string[];
  /** Sockets it may open at once (1 by default: one request exchange); a streaming client needs more. */
  connections?: number;
}

/**
 * An undici Agent whose every socket goes to the checked address. The socket is opened to the IP
 * itself, so no DNS happens at connect time and a rebinding answer has nothing to change; the URL,
 * the Host header and TLS (SNI and certificate checks) keep the host name. It serves one request
 * exchange and is destroyed after it, so no pooled connection outlives its check.
 */
export function pinnedAgent(
  target: RequestTarget,
  destination: Destination,
  options: PinnedAgentOptions,
): Agent {
  const connect = buildConnector({
    timeout: options.connectTimeoutMs,
    ...(options.trustedCertificates ? { ca: [...rootCertificates, ...options.trustedCertificates] } : {}),
  });
  const servername = target.isIpLiteral ? undefined : target.host;
  return new Agent({
    connections: options.connections ?? 1,
    connect: (connectOptions, callback) =>
      connect(
        { ...connectOptions, hostname: destination.address, ...(servername ? { servername } : {}) },
        callback,
      ),
  });
}
