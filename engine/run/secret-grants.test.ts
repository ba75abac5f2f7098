import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../models/test-support/fake-model-server';
import type { LoopbackServer } from '../models/test-support/loopback-server';
import { guardedLoopbackNetwork } from '../net/test-support/guarded-loopback-network';
import { loopbackTransport } from '../net/test-support/loopback-network';
import { envSecretStore } from '../secrets/env-secret-store';
import { orgKeyOf } from '../trust/org-trust';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import type { TrustStore } from '../trust/trust-store';
import { OrgEngine } from './org-engine';
import { resume, tempOrgs } from './test-support/temp-org';
import { filesUnder } from '../../test/test-support/files-under';

const VALUE = 'sk-granted-only-8c41f0a9d3';
const orgs = tempOrgs();
const loopback = guardedLoopbackNetwork();
const modelServers: LoopbackServer[] = [];
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) engine.close();
  for (const server of modelServers.splice(0)) await server.close();
});
afterAll(() => orgs.cleanup());

async function modelServer(key?: string): Promise<LoopbackServer> {
  const server = await startFakeOpenAiServer({ ...(key ? { key } : {}), models: ['m'] });
  modelServers.push(server);
  return server;
}

/** A tool that sends the secret X in a header to the (test) internet's echo route. */
const ECHO_TOOL = (port: number) => `
name: echo_order
description: Send an order to the shop
parameters:
  type: object
  properties:
    order_id: {type: string}
  required: [order_id]
  additionalProperties: false
implementation:
  primitive: http_request
  args:
    method: POST
    url: http://api.example.test:${port}/echo
    headers:
      X-Api-Key: \${secrets.X}
    body: {order: "\${order_id}"}
`;

async function open(
  org: string,
  trust: TrustStore,
  options: { secrets?: Record<string, string>; env?: Record<string, string> } = {},
) {
  const engine = await OrgEngine.open({
    orgPath: org,
    trust,
    env: options.env ?? {},
    secrets: envSecretStore(options.secrets ?? {}),
    httpTransport: loopbackTransport(),
  });
  engines.push(engine);
  return engine;
}

/** The org's trust as it is, without `name` granted (as when the person left its box unticked). */
async function trustedWithout(org: string, kind: 'secrets' | 'environment', name: string) {
  const trust = await trustAsIs(org);
  const revoked = await trust.grant(orgKeyOf(org), kind, name, false);
  if (!revoked.ok) throw new Error(revoked.error);
  return trust;
}

async function grant(trust: TrustStore, org: string, kind: 'secrets' | 'environment', name: string) {
  const granted = await trust.grant(orgKeyOf(org), kind, name, true);
  if (!granted.ok) throw new Error(granted.error);
}

function eventsOf(engine: OrgEngine, kind: string): Record<string, unknown>[] {
  return (
    engine.timeline.db
      .prepare('SELECT json FROM events WHERE kind = ? ORDER BY seq')
      .pluck()
      .all(kind) as string[]
  ).map((json) => JSON.parse(json) as Record<string, unknown>);
}

const NOT_GRANTED_X = (org: string) =>
  `this org may not use the secret X; grant it in Settings → Secrets (from the command line: lemming secret grant X --org ${org})`;

describe('an org trusted but not granted the secret X', () => {
  it('sends X to neither its model server nor its composed tool’s server, and records why; granted X, the same run sends it', async () => {
    const model = await modelServer(VALUE);
    const org = orgs.build({
      'lemming/config/models.json': {
        gpt: {
          provider: 'openai-compatible',
          model_name: 'm',
          provider_config: { base_url: `${model.url}/v1`, api_key_secret: 'X' },
        },
      },
      'lemming/config/policy.json': { network: { enabled: true } },
      'tools/echo_order.yaml': ECHO_TOOL(loopback.network.port),
      'agents/buyer/resume.json': resume('buyer', {
        model: { key: 'gpt' },
        permissions: { read_outboxes: [], tools: ['echo_order'] },
      }),
    });
    const trust = await trustedWithout(org, 'secrets', 'X');
    const engine = await open(org, trust, { secrets: { LEMMING_SECRET_X: VALUE } });

    expect((await engine.modelProblem('gpt'))?.message).toBe(
      `model "gpt" (OpenAI-compatible server): ${NOT_GRANTED_X(org)}`,
    );
    const verdict = (await engine.explainTools('buyer')).find((tool) => tool.name === 'echo_order');
    expect(verdict?.layers.find((layer) => !layer.passed)).toMatchObject({
      layer: 'readiness',
      reason: 'this org may not use the secret X; grant it in Settings → Secrets',
      plain: expect.stringContaining('this org is not allowed to use the key X'),
    });
    expect(verdict?.fix?.summary).toContain(`lemming secret grant X --org ${org}`);

    await engine.runTick();
    expect(eventsOf(engine, 'error')).toEqual([
      expect.objectContaining({
        agent: 'buyer',
        reason: 'llm_call_failed',
        message: `model "gpt" (OpenAI-compatible server): ${NOT_GRANTED_X(org)}`,
      }),
    ]);
    const refused = await engine.callTool('buyer', 'echo_order', { order_id: 'A-1' });
    expect(refused).toMatchObject({
      success: false,
      error:
        "Tool 'echo_order' not permitted for buyer: this org may not use the secret X; grant it in Settings → Secrets",
    });
    expect(eventsOf(engine, 'tool_result')).toEqual([expect.objectContaining({ result: refused })]);
    expect(model.received).toEqual([]);
    expect(loopback.network.publicServer.requests).toEqual([]);
    // The value X is stored under is still redacted everywhere, granted or not.
    for (const file of filesUnder(org))
      expect(readFileSync(file).includes(Buffer.from(VALUE)), file).toBe(false);

    await grant(trust, org, 'secrets', 'X');
    expect(await engine.modelProblem('gpt')).toBeNull();
    await engine.runTick();
    expect(model.received.map((request) => request.headers.authorization)).toEqual([`Bearer ${VALUE}`]);
    expect(await engine.callTool('buyer', 'echo_order', { order_id: 'A-2' })).toMatchObject({
      success: true,
    });
    expect(loopback.network.publicServer.requests.map((request) => request.headers['x-api-key'])).toEqual([
      VALUE,
    ]);
  });

  it('does not call a REST API whose key is X: its readiness says why; granted X, the call carries it', async () => {
    const org = orgs.build({
      'lemming/config/rest-apis.json': {
        apis: {
          inventory: {
            base_url: loopback.network.url('api.example.test'),
            auth: { style: 'bearer' },
            key_secret: 'X',
          },
        },
      },
      'lemming/config/policy.json': { network: { enabled: true } },
      'agents/buyer/resume.json': resume('buyer', {
        permissions: { read_outboxes: [], tools: ['inventory'] },
      }),
    });
    const trust = await trustedWithout(org, 'secrets', 'X');
    const engine = await open(org, trust, { secrets: { LEMMING_SECRET_X: VALUE } });

    const verdict = (await engine.explainTools('buyer')).find((tool) => tool.name === 'inventory');
    expect(verdict).toMatchObject({ available: false });
    expect(verdict?.layers.find((layer) => !layer.passed)).toMatchObject({
      layer: 'readiness',
      reason: 'this org may not use the secret X; grant it in Settings → Secrets',
    });
    expect(await engine.callTool('buyer', 'inventory', { path: '/echo' })).toMatchObject({ success: false });
    expect(loopback.network.publicServer.requests).toEqual([]);

    await grant(trust, org, 'secrets', 'X');
    expect(await engine.callTool('buyer', 'inventory', { path: '/echo' })).toMatchObject({ success: true });
    expect(loopback.network.publicServer.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${VALUE}`,
    ]);
  });

  it('does not start an MCP server that names X: its card says why, and granted X it starts with X', async () => {
    const marker = join(
      orgs.build({ 'README.txt': 'where the server writes when it starts' }),
      'started.txt',
    );
    const org = orgs.build({
      'lemming/config/mcp.json': {
        mcpServers: {
          shop: {
            command: process.execPath,
            args: [
              '-e',
              `require('fs').writeFileSync(${JSON.stringify(marker)}, process.env.SHOP_TOKEN ?? '')`,
            ],
            env: { SHOP_TOKEN: '${secrets.X}' },
          },
        },
      },
      'agents/buyer/resume.json': resume('buyer'),
    });
    const trust = await trustedWithout(org, 'secrets', 'X');
    const engine = await open(org, trust, { secrets: { LEMMING_SECRET_X: VALUE } });

    await engine.explainTools('buyer');
    expect(engine.mcp.views()[0]).toMatchObject({
      status: 'failed',
      error: `it was not started: ${NOT_GRANTED_X(org)}`,
    });
    expect(existsSync(marker)).toBe(false);

    await grant(trust, org, 'secrets', 'X');
    await engine.explainTools('buyer');
    expect(readFileSync(marker, 'utf8')).toBe(VALUE);
  });
});

describe('an environment variable an org names', () => {
  it('is read for api_key_env only once granted: before, a clear error and nothing sent', async () => {
    const model = await modelServer(VALUE);
    const org = orgs.build({
      'lemming/config/models.json': {
        gpt: {
          provider: 'openai-compatible',
          model_name: 'm',
          provider_config: { base_url: `${model.url}/v1`, api_key_env: 'SHOP_MODEL_KEY' },
        },
      },
      'agents/buyer/resume.json': resume('buyer', { model: { key: 'gpt' } }),
    });
    const trust = await trustedWithout(org, 'environment', 'SHOP_MODEL_KEY');
    const engine = await open(org, trust, { env: { SHOP_MODEL_KEY: VALUE } });

    const notGranted = `model "gpt" (OpenAI-compatible server): this org may not read the environment variable SHOP_MODEL_KEY; allow it on the org's trust screen (from the command line: lemming trust ${org} --yes --env SHOP_MODEL_KEY)`;
    expect((await engine.modelProblem('gpt'))?.message).toBe(notGranted);
    await engine.runTick();
    expect(eventsOf(engine, 'error')).toEqual([expect.objectContaining({ message: notGranted })]);
    expect(model.received).toEqual([]);

    await grant(trust, org, 'environment', 'SHOP_MODEL_KEY');
    await engine.runTick();
    expect(model.received.map((request) => request.headers.authorization)).toEqual([`Bearer ${VALUE}`]);
  });

  it('a provider’s own key variable (OPENAI_API_KEY) is sent only once granted', async () => {
    const model = await modelServer();
    const org = orgs.build({
      'lemming/config/models.json': {
        gpt: { provider: 'openai', model_name: 'm', provider_config: { base_url: `${model.url}/v1` } },
      },
      'agents/buyer/resume.json': resume('buyer', { model: { key: 'gpt' } }),
    });
    const trust = await trustedWithout(org, 'environment', 'OPENAI_API_KEY');
    const engine = await open(org, trust, { env: { OPENAI_API_KEY: VALUE } });

    await engine.runTick();
    expect(model.received).toHaveLength(1);
    expect(JSON.stringify(model.received)).not.toContain(VALUE);

    await grant(trust, org, 'environment', 'OPENAI_API_KEY');
    await engine.runTick();
    expect(model.received.at(-1)?.headers.authorization).toBe(`Bearer ${VALUE}`);
  });
});
