import http from 'node:http';
import https from 'node:https';
import net, { isIP } from 'node:net';
import tls from 'node:tls';
import { vi } from 'vitest';
import { classifyAddress, type AddressClassifier } from '../address-policy';
import type { HostLookup } from '../host-lookup';
import { SECURE_HOST_CERTIFICATE, SECURE_HOST_KEY } from './test-certificates';

/**
 * A small internet on loopback. Every server shares one port number, so a request that escaped its
 * checks and reached a forbidden address would land on a server that records it:
 *   127.0.0.2  "public"  (api.example.test): the test classifier calls it public
 *   127.0.0.3  "public"  (other.example.test): a second origin, for cross-origin redirects
 *   127.0.0.1  forbidden: loopback; records every connection and request
 *   127.0.0.4  private service (ollama.example.test): loopback, reachable only with an opt-in
 * plus an HTTPS server for secure.example.test on 127.0.0.2 (its own port).
 */
export const PUBLIC_ADDRESS = '127.0.0.2';
export const OTHER_PUBLIC_ADDRESS = '127.0.0.3';
export const FORBIDDEN_ADDRESS = '127.0.0.1';
export const PRIVATE_SERVICE_ADDRESS = '127.0.0.4';

/** Treats the two "public" loopback addresses as public; everything else is classified for real. */
export const testClassifier: AddressClassifier = (address) =>
  address === PUBLIC_ADDRESS || address === OTHER_PUBLIC_ADDRESS
    ? { address, class: 'public' }
    : classifyAddress(address);

export const TEST_DNS: Readonly<Record<string, readonly string[]>> = {
  'api.example.test': [PUBLIC_ADDRESS],
  'other.example.test': [OTHER_PUBLIC_ADDRESS],
  'secure.example.test': [PUBLIC_ADDRESS],
  'wrong-name.example.test': [PUBLIC_ADDRESS],
  'example.test': [PUBLIC_ADDRESS],
  'evilexample.test': [PUBLIC_ADDRESS],
  'deep.api.example.test': [PUBLIC_ADDRESS],
  'api.example.test.evil.test': [PUBLIC_ADDRESS],
  'shop.xn--bcher-kva.test': [PUBLIC_ADDRESS],
  'ollama.example.test': [PRIVATE_SERVICE_ADDRESS],
  localhost: [PRIVATE_SERVICE_ADDRESS],
  'loop.example.test': [FORBIDDEN_ADDRESS],
  'internal.example.test': ['10.0.0.5'],
  'metadata.example.test': ['169.254.169.254'],
  'printer.example.test': ['169.254.10.20'],
  'cgnat.example.test': ['100.64.1.1'],
  'fakeip.example.test': ['198.18.0.7'],
  'mixed.example.test': [PUBLIC_ADDRESS, '10.0.0.1'],
  'mapped.example.test': ['::ffff:127.0.0.1'],
  'nat64.example.test': ['64:ff9b::a9fe:a9fe'],
  'ula.example.test': ['fd12:3456::1'],
  'zero.example.test': ['0.0.0.0'],
  'bogus-answer.example.test': ['0x7f.0.0.1'],
  'empty.example.test': [],
};

export interface RecordingLookup {
  lookup: HostLookup;
  calls: string[];
}

/** A resolver answering from a table (and, when given, per-name sequences of answers); it records every question. */
export function tableLookup(
  table: Readonly<Record<string, readonly string[]>> = TEST_DNS,
  sequences: Readonly<Record<string, readonly (readonly string[])[]>> = {},
): RecordingLookup {
  const calls: string[] = [];
  const asked = new Map<string, number>();
  const lookup: HostLookup = async (hostname) => {
    calls.push(hostname);
    const times = asked.get(hostname) ?? 0;
    asked.set(hostname, times + 1);
    const sequence = sequences[hostname];
    const addresses = sequence ? sequence[Math.min(times, sequence.length - 1)] : table[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  };
  return { lookup, calls };
}

export interface ConnectAttempt {
  host: string;
  port: number;
  tls: boolean;
}

export interface ConnectionGuard {
  attempts: ConnectAttempt[];
  /** Attempts to anything but a literal loopback address; each was stopped before a socket existed. */
  violations: ConnectAttempt[];
  restore(): void;
}

/** How an engine's HTTP requests find the test network: TEST_DNS's names, testClassifier's address classes. */
export function loopbackTransport(): { lookup: HostLookup; classifyAddress: AddressClassifier } {
  return { lookup: tableLookup().lookup, classifyAddress: testClassifier };
}

const isLoopbackLiteral = (host: string) => (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';

/**
 * Watches every client socket the process opens (undici opens them through net.connect and
 * tls.connect). A connection to anything but a literal loopback IP is refused before the socket is
 * created and recorded as a violation, so no test can ever send a packet off this machine.
 */
export function guardConnections(): ConnectionGuard {
  const attempts: ConnectAttempt[] = [];
  const violations: ConnectAttempt[] = [];
  const watch = (isTls: boolean, options: unknown) => {
    const { host, port } = (options ?? {}) as { host?: unknown; port?: unknown };
    const attempt = { host: String(host), port: Number(port), tls: isTls };
    attempts.push(attempt);
    if (!isLoopbackLiteral(attempt.host)) {
      violations.push(attempt);
      throw new Error(`test connection guard: refused a socket to ${attempt.host}:${attempt.port}`);
    }
  };
  const netConnect = net.connect;
  const tlsConnect = tls.connect;
  const netSpy = vi.spyOn(net, 'connect').mockImplementation(((...args: Parameters<typeof net.connect>) => {
    watch(false, args[0]);
    return netConnect.apply(net, args);
  }) as typeof net.connect);
  const tlsSpy = vi.spyOn(tls, 'connect').mockImplementation(((...args: Parameters<typeof tls.connect>) => {
    watch(true, args[0]);
    return tlsConnect.apply(tls, args);
  }) as typeof tls.connect);
  return {
    attempts,
    violations,
    restore() {
      netSpy.mockRestore();
      tlsSpy.mockRestore();
    },
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface LoopbackServer {
  address: string;
  port: number;
  requests: RecordedRequest[];
  connections: number;
  /** Responses the client stopped reading before the server finished sending them. */
  abandonedResponses: number;
}

export interface LoopbackNetwork {
  port: number;
  securePort: number;
  publicServer: LoopbackServer;
  otherServer: LoopbackServer;
  forbiddenServer: LoopbackServer;
  privateServer: LoopbackServer;
  secureServer: LoopbackServer;
  /** `http://api.example.test:<port><path>` and friends. */
  url(host: string, path?: string): string;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Routes every server answers:
 *   /hello                      200 "hello from <address>"
 *   /echo                       200 JSON {method, path, headers, body}
 *   /redirect?to=U&status=N     N (default 302) with Location: U
 *   /loop                       302 to itself, forever
 *   /bytes?count=N              200 with N bytes, sent in 16 KiB chunks
 *   /trickle                    200, then one byte every 200 ms until the client leaves
 *   /hang                       never answers
 *   /binary                     200 image/png with the bytes 0 to 255
 *   /credentials                200 with Set-Cookie, X-Api-Key and WWW-Authenticate headers
 *   /status?code=N              N with a short body
 */
function route(record: LoopbackServer, timers: Set<NodeJS.Timeout>) {
  return (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      record.requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      });
      const url = new URL(request.url ?? '/', 'http://server.invalid');
      response.on('close', () => {
        if (!response.writableFinished) record.abandonedResponses += 1;
      });
      switch (url.pathname) {
        case '/hello':
          response.end(`hello from ${record.address}`);
          return;
        case '/echo':
          response.setHeader('content-type', 'application/json');
          response.end(
            JSON.stringify({ method: request.method, path: request.url, headers: request.headers, body }),
          );
          return;
        case '/redirect':
          response.writeHead(Number(url.searchParams.get('status') ?? 302), {
            location: url.searchParams.get('to') ?? '/',
          });
          response.end();
          return;
        case '/loop':
          response.writeHead(302, { location: '/loop' });
          response.end();
          return;
        case '/bytes':
          sendBytes(response, Number(url.searchParams.get('count') ?? 0));
          return;
        case '/trickle': {
          response.writeHead(200, { 'content-type': 'text/plain' });
          const timer = setInterval(() => response.write('x'), 200);
          timers.add(timer);
          response.on('close', () => {
            clearInterval(timer);
            timers.delete(timer);
          });
          return;
        }
        case '/hang':
          return;
        case '/binary':
          response.writeHead(200, { 'content-type': 'image/png' });
          response.end(Buffer.from(Array.from({ length: 256 }, (_, byte) => byte)));
          return;
        case '/credentials':
          response.writeHead(200, {
            'set-cookie': 'session=abc123',
            'x-api-key': 'server-key-123',
            'www-authenticate': 'Bearer realm="x"',
            'x-request-id': 'req-7',
          });
          response.end('ok');
          return;
        case '/status': {
          const code = Number(url.searchParams.get('code') ?? 200);
          response.writeHead(code);
          response.end(`status ${code}`);
          return;
        }
        default:
          response.writeHead(404);
          response.end('no such route');
      }
    });
  };
}

function sendBytes(response: http.ServerResponse, count: number): void {
  response.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(16 * 1024, 'a');
  let left = count;
  const pump = () => {
    while (left > 0) {
      const piece = chunk.subarray(0, Math.min(chunk.length, left));
      left -= piece.length;
      if (!response.write(piece)) {
        response.once('drain', pump);
        return;
      }
    }
    response.end();
  };
  response.on('close', () => (left = 0));
  pump();
}

type AnyServer = http.Server | https.Server;

function newRecord(address: string): LoopbackServer {
  return { address, port: 0, requests: [], connections: 0, abandonedResponses: 0 };
}

function listen(server: AnyServer, address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

function closeServer(server: AnyServer): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function makeServer(record: LoopbackServer, timers: Set<NodeJS.Timeout>, secure = false): AnyServer {
  const handler = route(record, timers);
  const server = secure
    ? https.createServer({ cert: SECURE_HOST_CERTIFICATE, key: SECURE_HOST_KEY }, handler)
    : http.createServer(handler);
  server.on(secure ? 'secureConnection' : 'connection', () => (record.connections += 1));
  return server;
}

export async function startLoopbackNetwork(): Promise<LoopbackNetwork> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await startOnce();
    } catch (error) {
      // Another process may hold the shared port on one of the addresses; pick a new port.
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
}

async function startOnce(): Promise<LoopbackNetwork> {
  const timers = new Set<NodeJS.Timeout>();
  const records = {
    publicServer: newRecord(PUBLIC_ADDRESS),
    otherServer: newRecord(OTHER_PUBLIC_ADDRESS),
    forbiddenServer: newRecord(FORBIDDEN_ADDRESS),
    privateServer: newRecord(PRIVATE_SERVICE_ADDRESS),
    secureServer: newRecord(PUBLIC_ADDRESS),
  };
  const servers: AnyServer[] = [];
  const start = async (record: LoopbackServer, port: number, secure = false) => {
    const server = makeServer(record, timers, secure);
    servers.push(server);
    record.port = await listen(server, record.address, port);
    return record.port;
  };
  try {
    const port = await start(records.publicServer, 0);
    await start(records.otherServer, port);
    await start(records.forbiddenServer, port);
    await start(records.privateServer, port);
    const securePort = await start(records.secureServer, 0, true);
    return {
      port,
      securePort,
      ...records,
      url: (host, path = '/') => `http://${host}:${port}${path}`,
      reset() {
        for (const record of Object.values(records)) {
          record.requests.length = 0;
          record.connections = 0;
          record.abandonedResponses = 0;
        }
      },
      async close() {
        for (const timer of timers) clearInterval(timer);
        await Promise.all(servers.map(closeServer));
      },
    };
  } catch (error) {
    for (const timer of timers) clearInterval(timer);
    await Promise.all(servers.filter((server) => server.listening).map(closeServer));
    throw error;
  }
}
