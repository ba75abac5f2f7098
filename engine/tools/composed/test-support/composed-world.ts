import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostLookup } from '../../../net/host-lookup';
import { OrgPolicySchema } from '../../../org/policy-file';
import { ResumeSchema } from '../../../org/resume-schema';
import { TurnMemory } from '../../../memory/turn-memory';
import { AgentSandbox } from '../../../sandbox/agent-sandbox';
import { MemoryAgentFilesystem } from '../../../sandbox/memory-agent-filesystem';
import type { ToolContext } from '../../tool-spec';
import { netHttpPrimitive, type HttpPrimitive } from '../http-primitive';
import { createRedactor } from '../../../secrets/redactor';

export interface TempOrg {
  org: string;
  write(relative: string, text: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** An org folder in a fresh temp dir, with the given files (paths relative to the org). */
export async function tempOrg(files: Readonly<Record<string, string>> = {}): Promise<TempOrg> {
  const org = await mkdtemp(path.join(tmpdir(), 'lemming-composed-'));
  const write = async (relative: string, text: string) => {
    const file = path.join(org, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  };
  for (const [relative, text] of Object.entries(files)) await write(relative, text);
  return { org, write, cleanup: () => rm(org, { recursive: true, force: true }) };
}

/** What a composed tool's run gets for one agent's turn; composed tools only read `signal`, delegates may read more. */
export function toolContext(org: string, agent = 'somi'): ToolContext {
  const agentDir = path.join(org, 'agents', agent);
  return {
    orgPath: org,
    agentDir,
    resume: ResumeSchema.parse({
      name: agent,
      title: 'Social media manager',
      instructions: 'Plan posts.',
      model: 'scripted',
      permissions: { read_outboxes: [], tools: [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    }),
    tick: 1,
    memory: new TurnMemory(agentDir),
    sandbox: new AgentSandbox({ orgPath: org, agentDir, fs: new MemoryAgentFilesystem() }),
    agents: [{ name: agent, title: 'Social media manager' }],
    policy: OrgPolicySchema.parse({}),
    redaction: createRedactor(),
  };
}

export interface ReceivedRequest {
  method: string;
  /** Path and query exactly as sent on the request line. */
  target: string;
  headers: IncomingHttpHeaders;
  /** Header names and values as sent, in order. */
  rawHeaders: string[];
  body: string;
}

export interface ServiceServer {
  port: number;
  received: ReceivedRequest[];
  /** Rows stored by POST /rest/v1/<table>. */
  tables: Map<string, Record<string, unknown>[]>;
  close(): Promise<void>;
}

export const SERVICE_KEY = 'sb-service-key-7f3a9c';

/**
 * A real HTTP server on 127.0.0.1 that answers like the services composed tools call:
 *   POST /rest/v1/<table>   PostgREST: needs `apikey` and `Authorization: Bearer <SERVICE_KEY>`,
 *                           stores the JSON row(s), 201 with the rows under Prefer: return=representation
 *   GET  /rest/v1/<table>   PostgREST: the stored rows
 *   /echo…                  200 JSON {method, target, headers, body}, echoing headers (credentials included)
 *   /status/<code>          <code> with JSON {message, status: "body-status"}
 *   /text                   200 text/plain "plain answer"
 *   /big                    200 JSON with a 100 000-character field
 */
export async function startServiceServer(): Promise<ServiceServer> {
  const received: ReceivedRequest[] = [];
  const tables = new Map<string, Record<string, unknown>[]>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        target: incoming.url ?? '',
        headers: incoming.headers,
        rawHeaders: incoming.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      answer(request, response, tables);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    tables,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(value));
}

function answer(
  request: ReceivedRequest,
  response: ServerResponse,
  tables: Map<string, Record<string, unknown>[]>,
): void {
  const url = new URL(request.target, 'http://service.invalid');
  const table = /^\/rest\/v1\/([a-z_]+)$/.exec(url.pathname)?.[1];
  if (table) return postgrest(table, request, response, tables);
  if (url.pathname.startsWith('/echo'))
    return json(response, 200, {
      method: request.method,
      target: request.target,
      headers: request.headers,
      body: request.body,
    });
  const status = /^\/status\/(\d{3})$/.exec(url.pathname)?.[1];
  if (status)
    return json(response, Number(status), { message: `failed with ${status}`, status: 'body-status' });
  if (url.pathname === '/text') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('plain answer');
    return;
  }
  if (url.pathname === '/big') return json(response, 200, { filler: 'x'.repeat(100_000) });
  json(response, 404, { message: 'no such route' });
}

function postgrest(
  table: string,
  request: ReceivedRequest,
  response: ServerResponse,
  tables: Map<string, Record<string, unknown>[]>,
): void {
  if (request.headers.apikey !== SERVICE_KEY || request.headers.authorization !== `Bearer ${SERVICE_KEY}`)
    return json(response, 401, {
      message: 'Invalid API key',
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    });
  const rows = tables.get(table) ?? [];
  tables.set(table, rows);
  if (request.method === 'GET') return json(response, 200, rows);
  if (request.method !== 'POST') return json(response, 405, { message: 'method not allowed' });
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.body);
  } catch {
    return json(response, 400, { code: 'PGRST102', message: 'Empty or invalid json' });
  }
  const inserted: Record<string, unknown>[] = (Array.isArray(parsed) ? parsed : [parsed]).map(
    (row, index) => ({
      id: rows.length + index + 1,
      ...(row as Record<string, unknown>),
    }),
  );
  if (inserted.some((row) => typeof row.content !== 'string'))
    return json(response, 400, {
      code: '23502',
      message: 'null value in column "content" violates not-null constraint',
    });
  rows.push(...inserted);
  if (String(request.headers.prefer ?? '').includes('return=representation'))
    return json(response, 201, inserted);
  response.writeHead(201);
  response.end();
}

/**
 * The real SSRF-safe primitive, with test names resolving to the loopback server and those names
 * opted in as private hosts (the org setting a user would use for a service on their own network).
 */
export function loopbackHttp(hosts: readonly string[]): HttpPrimitive {
  const lookup: HostLookup = async (hostname) => {
    if (hosts.includes(hostname)) return [{ address: '127.0.0.1', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  return netHttpPrimitive({ lookup, allowPrivateHosts: hosts });
}

/** A secret lookup over a fixed table, the shape the app's secret store provides. */
export const secretTable =
  (values: Readonly<Record<string, string>>) =>
  (name: string): string | undefined =>
    Object.hasOwn(values, name) ? values[name] : undefined;
