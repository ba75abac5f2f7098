import { describe, expect, it } from 'vitest';
import { ApprovalDesk } from '../app/approvals';
import { loopbackTransport } from '../net/test-support/loopback-network';
import { guardedLoopbackNetwork } from '../net/test-support/guarded-loopback-network';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();
const loopback = guardedLoopbackNetwork();

type Step = { tool: string; args: Record<string, unknown> };

/** One agent, `scout`, whose model makes `call` in round 1; the org's network is on and reaches the loopback "internet". */
function org(call: Step, tools: string[], files: Record<string, unknown>): string {
  return world.orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'lemming/config/policy.json': { network: { enabled: true } },
    'script.json': {
      agents: {
        scout: [{ when: { round: 1 }, respond: { tool_calls: [call] } }, { respond: { notes: 'done' } }],
      },
    },
    'agents/scout/resume.json': resume('scout', { permissions: { read_outboxes: [], tools } }),
    ...files,
  });
}

async function runOnce(path: string): Promise<OrgEngine> {
  const engine = await world.open(path, {
    approvals: new ApprovalDesk(() => {}),
    httpTransport: loopbackTransport(),
  });
  await engine.runTick();
  return engine;
}

function events(engine: OrgEngine, kinds: string[]) {
  return engine.timeline
    .page({ kinds, direction: 'asc', cursor: null, limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;

const HTTP_NEVER = {
  'lemming/config/approvals.json': { timeout_seconds: 0.3, tools: { http_request: 'never' } },
};

describe('approvals judge what a tool actually runs', () => {
  it('a composed tool that sends an HTTP request is never run while http_request is set to "never"', async () => {
    const url = loopback.network.url('api.example.test', '/orders');
    const path = org({ tool: 'list_orders', args: {} }, ['list_orders'], {
      ...HTTP_NEVER,
      'tools/list_orders.yaml': yaml(
        'name: list_orders',
        'description: List the orders',
        'parameters: {type: object, properties: {}}',
        'implementation:',
        '  primitive: http_request',
        `  args: {method: GET, url: "${url}"}`,
      ),
    });
    const engine = await runOnce(path);
    expect(loopback.network.publicServer.requests).toEqual([]);
    expect(events(engine, ['tool_result'])[0]).toMatchObject({
      tool: 'list_orders',
      result: { success: false, error: expect.stringContaining('http_request is set to "never allowed"') },
    });
  });

  it('a composed tool delegating to another that sends the request inherits "never" along the chain', async () => {
    const url = loopback.network.url('api.example.test', '/orders');
    const path = org({ tool: 'outer', args: {} }, ['outer', 'outer via inner'], {
      'lemming/config/approvals.json': { timeout_seconds: 0.3, tools: { inner: 'never' } },
      'tools/inner.yaml': yaml(
        'name: inner',
        'description: Read the orders',
        'parameters: {type: object, properties: {}}',
        'implementation:',
        '  primitive: http_request',
        `  args: {method: GET, url: "${url}"}`,
      ),
      'tools/outer.yaml': yaml(
        'name: outer',
        'description: Read the orders through inner',
        'parameters: {type: object, properties: {}}',
        'implementation:',
        '  primitive: inner',
        '  args: {}',
      ),
    });
    const engine = await runOnce(path);
    expect(loopback.network.publicServer.requests).toEqual([]);
    expect(events(engine, ['tool_result'])[0]).toMatchObject({
      tool: 'outer',
      result: { success: false, error: expect.stringContaining('inner is set to "never allowed"') },
    });
  });

  it('a composed tool that runs the shell is never run while shell is set to "never" for the agent', async () => {
    const path = org(
      { tool: 'run_it', args: { cmd: 'echo hi > made.txt' } },
      ['run_it', 'run_it via shell'],
      {
        'lemming/config/approvals.json': {
          agents: { scout: { shell: 'never' } },
          tools: { run_it: 'always' },
        },
        'tools/run_it.yaml': yaml(
          'name: run_it',
          'description: Run a command',
          'parameters: {type: object, properties: {cmd: {type: string}}, required: [cmd]}',
          'implementation:',
          '  primitive: shell',
          '  args: {command: "${cmd}"}',
        ),
      },
    );
    const engine = await runOnce(path);
    expect(events(engine, ['tool_result'])[0]).toMatchObject({
      tool: 'run_it',
      result: { success: false, error: expect.stringContaining('shell is set to "never allowed" for scout') },
    });
  });

  it('a read-only REST API tool is an HTTP request underneath: never run while http_request is "never"', async () => {
    const path = org({ tool: 'inventory', args: { path: '/items' } }, ['inventory'], {
      ...HTTP_NEVER,
      'lemming/config/rest-apis.json': {
        apis: { inventory: { base_url: loopback.network.url('api.example.test'), auth: { style: 'none' } } },
      },
    });
    const engine = await runOnce(path);
    expect(loopback.network.publicServer.requests).toEqual([]);
    expect(events(engine, ['tool_result'])[0]).toMatchObject({
      tool: 'inventory',
      result: { success: false, error: expect.stringContaining('http_request is set to "never allowed"') },
    });
  });

  it('a read-only REST API tool asks first while http_request is set to "ask", and unanswered sends nothing', async () => {
    const path = org({ tool: 'inventory', args: { path: '/items' } }, ['inventory'], {
      'lemming/config/approvals.json': { timeout_seconds: 0.3, tools: { http_request: 'ask' } },
      'lemming/config/rest-apis.json': {
        apis: { inventory: { base_url: loopback.network.url('api.example.test'), auth: { style: 'none' } } },
      },
    });
    const engine = await runOnce(path);
    expect(loopback.network.publicServer.requests).toEqual([]);
    const [requested] = events(engine, ['approval_requested']);
    expect(requested).toMatchObject({ tool: 'inventory' });
    expect(requested!.reason).toBe(
      'inventory runs http_request. http_request is set to "ask me first" for every agent in the approval settings.',
    );
  });

  it.each(['X-HTTP-Method-Override', 'x-http-method', 'X-METHOD-OVERRIDE'])(
    'a GET carrying %s: DELETE is judged as a DELETE: it asks, and unanswered nothing is sent',
    async (header) => {
      const path = org(
        {
          tool: 'http_request',
          args: {
            method: 'GET',
            url: loopback.network.url('api.example.test', '/orders/1'),
            headers: { [header]: 'delete' },
          },
        },
        ['http_request'],
        { 'lemming/config/approvals.json': { timeout_seconds: 0.3 } },
      );
      const engine = await runOnce(path);
      expect(loopback.network.publicServer.requests).toEqual([]);
      const [requested] = events(engine, ['approval_requested']);
      expect(requested).toMatchObject({ tool: 'http_request' });
      expect(requested!.reason).toBe(
        `It sends a GET request that asks the server to treat it as a DELETE (${header}), which can change things on that server.`,
      );
    },
  );

  it('a composed GET whose template carries a method-override header asks as the overriding method', async () => {
    const path = org({ tool: 'drop_order', args: { id: '1' } }, ['drop_order'], {
      'lemming/config/approvals.json': { timeout_seconds: 0.3 },
      'tools/drop_order.yaml': yaml(
        'name: drop_order',
        'description: Looks like a read',
        'parameters: {type: object, properties: {id: {type: string}}, required: [id]}',
        'implementation:',
        '  primitive: http_request',
        '  args:',
        '    method: GET',
        `    url: "${loopback.network.url('api.example.test', '/orders/${id}')}"`,
        '    headers: {x-http-method-override: PUT}',
      ),
    });
    const engine = await runOnce(path);
    expect(loopback.network.publicServer.requests).toEqual([]);
    const [requested] = events(engine, ['approval_requested']);
    expect(requested).toMatchObject({ tool: 'drop_order' });
    expect(requested!.reason).toContain('treat it as a PUT');
  });
});
