import { createRedactor } from '../secrets/redactor';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PRIVATE_SERVICE_ADDRESS,
  PUBLIC_ADDRESS,
  loopbackTransport,
} from '../net/test-support/loopback-network';
import { guardedLoopbackNetwork } from '../net/test-support/guarded-loopback-network';
import { OrgPolicySchema } from '../org/policy-file';
import { ResumeSchema } from '../org/resume-schema';
import { TurnMemory } from '../memory/turn-memory';
import { AgentSandbox } from '../sandbox/agent-sandbox';
import { MemoryAgentFilesystem } from '../sandbox/memory-agent-filesystem';
import {
  createHttpRequestTool,
  networkAccessFromPolicy,
  runHttpRequest,
  type HttpTransport,
  type NetworkAccess,
} from './http-request-tool';
import { ToolResult } from './tool-result';
import type { ToolContext } from './tool-spec';

const resume = ResumeSchema.parse({
  name: 'scout',
  title: 'Scout',
  instructions: 'Look things up on the web.',
  model: 'scripted',
  permissions: { read_outboxes: [], tools: ['http_request'] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
});

const OPEN: NetworkAccess = { enabled: true, allowedHosts: 'any', privateHosts: [] };

const loopback = guardedLoopbackNetwork();
let orgPath: string;
let context: ToolContext;
let transport: HttpTransport;

beforeAll(async () => {
  orgPath = await mkdtemp(join(tmpdir(), 'lemming-http-tool-'));
  const agentDir = join(orgPath, 'agents', 'scout');
  await mkdir(join(agentDir, 'workspace'), { recursive: true });
  context = {
    orgPath,
    agentDir,
    resume,
    tick: 1,
    memory: new TurnMemory(agentDir),
    sandbox: new AgentSandbox({ orgPath, agentDir, fs: new MemoryAgentFilesystem() }),
    agents: [{ name: 'scout', title: 'Scout' }],
    redaction: createRedactor(),
  };
  transport = loopbackTransport();
});

afterAll(async () => {
  await rm(orgPath, { recursive: true, force: true });
});

function tool(access: NetworkAccess = OPEN, limits = {}) {
  return createHttpRequestTool({ network: () => access, transport, limits });
}

async function call(args: unknown, access: NetworkAccess = OPEN, limits = {}) {
  return ToolResult.parse(await tool(access, limits).run(args, context));
}

function output(result: ToolResult) {
  expect(result).toMatchObject({ success: true, error: null });
  return JSON.parse(result.output ?? 'null');
}

describe('the http_request tool', () => {
  it('is a network tool whose schema asks for method and url', () => {
    const spec = tool();
    expect(spec).toMatchObject({ name: 'http_request', kind: 'network' });
    expect(spec.definition.parameters).toMatchObject({
      required: ['method', 'url'],
      additionalProperties: false,
    });
  });

  it('refuses everything while the org has network access off, without sending anything', async () => {
    const result = await call(
      { method: 'GET', url: loopback.network.url('api.example.test', '/hello') },
      { ...OPEN, enabled: false },
    );

    expect(result).toEqual({
      success: false,
      output: null,
      error:
        'Network access is off for this organization. The user can turn it on in the organization policy (network.enabled).',
      failure: { kind: 'refused', retryable: false },
    });
    expect(loopback.guard.attempts).toEqual([]);
    expect(loopback.network.publicServer.requests).toEqual([]);
  });

  it('reads the policy at every call', async () => {
    let access: NetworkAccess = { ...OPEN, enabled: false };
    const spec = createHttpRequestTool({ network: () => access, transport });
    const args = { method: 'GET', url: loopback.network.url('api.example.test', '/hello') };

    expect((await spec.run(args, context)).success).toBe(false);
    access = OPEN;
    expect((await spec.run(args, context)).success).toBe(true);
  });

  it('answers with status, headers, body text, the final URL and whether the body was cut', async () => {
    const answer = output(
      await call({ method: 'get', url: loopback.network.url('api.example.test', '/redirect?to=%2Fhello') }),
    );

    expect(answer).toMatchObject({
      status: 200,
      url: loopback.network.url('api.example.test', '/hello'),
      redirects: 1,
      body: `hello from ${PUBLIC_ADDRESS}`,
      truncated: false,
    });
    expect(answer.headers['content-length']).toBe(String(`hello from ${PUBLIC_ADDRESS}`.length));
  });

  it('sends the headers and body it is given', async () => {
    const answer = output(
      await call({
        method: 'POST',
        url: loopback.network.url('api.example.test', '/echo'),
        headers: { 'Content-Type': 'application/json', 'X-Request': 'r1' },
        body: '{"q":"lemmings"}',
      }),
    );
    expect(JSON.parse(answer.body)).toMatchObject({
      method: 'POST',
      body: '{"q":"lemmings"}',
      headers: { 'content-type': 'application/json', 'x-request': 'r1' },
    });
  });

  it('treats an HTTP error status as an answer, not a tool failure', async () => {
    const answer = output(
      await call({ method: 'GET', url: loopback.network.url('api.example.test', '/status?code=503') }),
    );
    expect(answer).toMatchObject({ status: 503, body: 'status 503' });
  });

  it('hides credential headers of the answer', async () => {
    const answer = output(
      await call({ method: 'GET', url: loopback.network.url('api.example.test', '/credentials') }),
    );
    expect(answer.headers).toMatchObject({
      'set-cookie': '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'www-authenticate': '[REDACTED]',
      'x-request-id': 'req-7',
    });
    expect(JSON.stringify(answer)).not.toContain('abc123');
  });

  it('does not put binary bodies into the agent context', async () => {
    const answer = output(
      await call({ method: 'GET', url: loopback.network.url('api.example.test', '/binary') }),
    );
    expect(answer).toMatchObject({
      body: null,
      body_note: 'binary content (256 bytes, image/png) is not shown',
    });
  });

  it('cuts long bodies at its byte cap', async () => {
    const answer = output(
      await call(
        { method: 'GET', url: loopback.network.url('api.example.test', '/bytes?count=100000') },
        OPEN,
        {
          maxResponseBytes: 10,
        },
      ),
    );
    expect(answer).toMatchObject({ body: 'aaaaaaaaaa', truncated: true });
  });

  it('redacts a body cut at its byte cap: no first characters of a stored secret stay at the cut, plain or base64', async () => {
    const token = 'tok-http-Gd3Rk7Yp1Nx9';
    const withSecret = { ...context, redaction: createRedactor([{ name: 'SERVICE_TOKEN', value: token }]) };
    for (const spelling of [token, Buffer.from(token).toString('base64')]) {
      const args = {
        method: 'POST',
        url: loopback.network.url('api.example.test', '/echo'),
        body: `${spelling} more`,
      };
      const whole = output(ToolResult.parse(await tool().run(args, context))).body as string;
      const at = Buffer.byteLength(whole.slice(0, whole.indexOf(spelling)));
      for (const kept of [8, 13, token.length - 1]) {
        const cut = output(
          ToolResult.parse(await tool(OPEN, { maxResponseBytes: at + kept }).run(args, withSecret)),
        );
        expect(cut.truncated).toBe(true);
        expect(cut.body).not.toContain(spelling.slice(0, 8));
      }
    }
  });

  it('words refusals and failures for the agent, with the reason', async () => {
    expect(await call({ method: 'GET', url: 'http://internal.example.test/admin' })).toEqual({
      success: false,
      output: null,
      error:
        'Request refused (forbidden_address): internal.example.test resolves to 10.0.0.5, which is a private network address; agents may not reach it',
      failure: { kind: 'refused', retryable: false },
    });
    expect(
      await call({ method: 'GET', url: loopback.network.url('api.example.test', '/hang') }, OPEN, {
        deadlineMs: 200,
      }),
    ).toMatchObject({
      success: false,
      error:
        'Request failed (deadline_exceeded): no complete answer within 200 ms (stopped before api.example.test answered)',
      failure: { kind: 'timeout', retryable: true },
    });
    expect(loopback.guard.attempts.map((attempt) => attempt.host)).toEqual([PUBLIC_ADDRESS]);
    expect(loopback.network.forbiddenServer.requests).toEqual([]);
  });

  it('applies allowed_hosts and the named private hosts of the org', async () => {
    const policy = OrgPolicySchema.parse({
      network: { enabled: true, private_hosts: ['ollama.example.test'] },
    });
    const access = networkAccessFromPolicy(policy);

    const ollama = output(
      await call({ method: 'GET', url: loopback.network.url('ollama.example.test', '/hello') }, access),
    );
    expect(ollama.body).toBe(`hello from ${PRIVATE_SERVICE_ADDRESS}`);
    expect(
      (await call({ method: 'GET', url: loopback.network.url('loop.example.test', '/hello') }, access)).error,
    ).toMatch(/^Request refused \(forbidden_address\): loop\.example\.test resolves to 127\.0\.0\.1/);

    const narrow = { ...OPEN, allowedHosts: ['*.example.test'] };
    expect(
      (await call({ method: 'GET', url: loopback.network.url('example.test', '/hello') }, narrow)).error,
    ).toBe(
      `Request refused (host_not_allowed): example.test (port ${loopback.network.port}) is not in the allowed hosts`,
    );
    expect(loopback.network.forbiddenServer.requests).toEqual([]);
  });

  it('explains bad arguments', async () => {
    expect((await call({ method: 'GET' })).error).toBe('Invalid arguments for http_request: url: required');
    expect((await call({ method: 'GET', url: 'http://x.test/', headers: { A: 1 } })).error).toBe(
      'Invalid arguments for http_request: headers.A: must be text',
    );
    expect((await call('GET http://x.test/')).error).toMatch(/^Invalid arguments for http_request: args: /);
  });

  it('redacts the secrets a composed tool hands it', async () => {
    const secret = 'tok-0123456789abcdef';
    const result = await runHttpRequest(
      {
        method: 'GET',
        url: loopback.network.url('api.example.test', '/echo'),
        headers: { Authorization: `Bearer ${secret}` },
      },
      { network: OPEN, secretValues: [secret], transport, redaction: createRedactor() },
    );
    expect(result.output).not.toContain(secret);
    expect(JSON.parse(output(result).body).headers.authorization).toBe('Bearer [REDACTED]');
  });

  it('stops when the turn is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await tool().run(
      { method: 'GET', url: loopback.network.url('api.example.test', '/hang') },
      { ...context, signal: controller.signal },
    );
    expect(result.error).toMatch(/^Request failed \(aborted\): the request was cancelled/);
  });
});
