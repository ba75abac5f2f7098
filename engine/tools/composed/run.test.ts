import { describe, expect, it } from 'vitest';
import { toolFailure, toolSuccess } from '../tool-result';
import type { ToolSpec } from '../tool-spec';
import { loadComposedTools } from './loader';
import { runComposedTool } from './run';
import { loopbackHttp, secretTable, toolContext } from './test-support/composed-world';
import { composedWorld } from './test-support/composed-world-hooks';
import { composedToolSpecs, type ComposedToolsetOptions } from './tool-specs';
import { refusesNothing, type NotGranted } from '../../api/grant-refusal';

const HOST = 'api.shop.test';
const KEY = 'key-"quoted"\\-4242';

const world = composedWorld();

/** A shop service tool in the AgentClash dialect; `route` is the path after the host. */
const shopTool = (name: string, route: string, extra = '') => `
name: ${name}
description: Call the shop
parameters:
  type: object
  properties:
    order_id: {type: string}
    note: {type: string, default: "none"}
    count: {type: integer}
  required: [order_id]
  additionalProperties: false
implementation:
  primitive: http_request
  args:
    method: POST
    url: http://${HOST}:PORT${route}
    headers:
      X-Api-Key: \${secrets.SHOP_KEY}
      X-Note: \${note}
    body: {order: "\${order_id}", count: "\${count}", note: "\${note}"}
${extra}`;

async function toolset(files: Record<string, string>, options: Partial<ComposedToolsetOptions> = {}) {
  for (const [file, text] of Object.entries(files))
    await world.org.write(file, text.replaceAll('PORT', String(world.server.port)));
  const load = await loadComposedTools(world.org.org, 'somi');
  expect(load.problems).toEqual([]);
  return composedToolSpecs(load.tools, {
    lookup: secretTable({ SHOP_KEY: KEY }),
    refusal: refusesNothing,
    http: loopbackHttp([HOST]),
    ...options,
  });
}

async function specOf(
  files: Record<string, string>,
  name: string,
  options: Partial<ComposedToolsetOptions> = {},
): Promise<ToolSpec> {
  const set = await toolset(files, options);
  const spec = set.entries.find((entry) => entry.spec.name === name)?.spec;
  if (!spec) throw new Error(`${name} did not load: ${JSON.stringify(set.problems)}`);
  return spec;
}

describe('running a composed http tool', () => {
  it('checks the arguments, fills in defaults and sends the rendered request', async () => {
    const spec = await specOf({ 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') }, 'echo_order');
    expect(spec.kind).toBe('network');
    const result = await spec.run({ order_id: 'o-7', count: 2 }, toolContext(world.org.org));
    expect(result.success).toBe(true);
    expect(world.server.received).toHaveLength(1);
    const [request] = world.server.received;
    expect(request?.target).toBe('/echo/orders');
    expect(request?.headers['x-api-key']).toBe(KEY);
    expect(request?.headers['x-note']).toBe('none');
    expect(JSON.parse(request?.body ?? '')).toEqual({ order: 'o-7', count: 2, note: 'none' });
  });

  it('sends nothing when its secret is set but not granted to the org, and says how to grant it', async () => {
    const notGranted: NotGranted = {
      kind: 'secret',
      name: 'SHOP_KEY',
      reason: 'this org may not use the secret SHOP_KEY; grant it in Settings → Secrets',
      command: 'lemming secret grant SHOP_KEY --org /org',
      plain: { reason: 'this org is not allowed to use the key SHOP_KEY', fix: 'allow it' },
    };
    const set = await toolset(
      { 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') },
      { lookup: () => undefined, refusal: (kind, name) => (name === 'SHOP_KEY' ? notGranted : null) },
    );
    const [entry] = set.entries;
    expect(entry?.readiness).toEqual({
      ready: false,
      reason: notGranted.reason,
      fix: 'run lemming secret grant SHOP_KEY --org /org',
      plain: notGranted.plain,
    });
    expect(await entry?.spec.run({ order_id: 'o-7' }, toolContext(world.org.org))).toEqual(
      toolFailure(
        'echo_order cannot run: this org may not use the secret SHOP_KEY; grant it in Settings → Secrets (from the command line: lemming secret grant SHOP_KEY --org /org)',
        { kind: 'not_granted' },
      ),
    );
    expect(world.server.received).toEqual([]);
  });

  it('does not coerce argument types, and names what is wrong', async () => {
    const spec = await specOf({ 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') }, 'echo_order');
    const context = toolContext(world.org.org);
    expect(await spec.run({ order_id: 'o-7', count: '2' }, context)).toEqual(
      toolFailure("invalid arguments for echo_order: argument 'count' must be a whole number (integer)"),
    );
    expect(await spec.run({ order_id: 7, count: 1.5 }, context)).toEqual(
      toolFailure(
        "invalid arguments for echo_order: argument 'order_id' must be text (a string); argument 'count' must be a whole number (integer)",
      ),
    );
    expect(await spec.run('o-7', context)).toEqual(
      toolFailure('invalid arguments for echo_order: the arguments must be a JSON object'),
    );
    expect(await spec.run(null, context)).toEqual(
      toolFailure("invalid arguments for echo_order: missing required argument 'order_id'"),
    );
    expect(world.server.received).toEqual([]);
  });

  it('redacts the secrets it sent from everything the model sees, in every spelling', async () => {
    const spec = await specOf({ 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') }, 'echo_order');
    const result = await spec.run({ order_id: 'o-7' }, toolContext(world.org.org));
    expect(world.server.received[0]?.headers['x-api-key']).toBe(KEY);
    const output = JSON.parse(result.output ?? '');
    expect(output.status).toBe(200);
    expect(output.body.headers['x-api-key']).toBe('[REDACTED]');
    expect(result.output).not.toContain('4242');
  });

  it('refuses a header-bound argument holding CR/LF, and sends nothing', async () => {
    const spec = await specOf({ 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') }, 'echo_order');
    const result = await spec.run({ order_id: 'o-7', note: 'x\r\nX-Admin: yes' }, toolContext(world.org.org));
    expect(result).toEqual(
      toolFailure(
        "echo_order: implementation.args.headers.X-Note: the argument 'note' contains a line break or control character, which a header value cannot hold; nothing was sent",
      ),
    );
    expect(world.server.received).toEqual([]);
  });

  it('keeps ../ in a path argument inside its segment on the wire', async () => {
    const spec = await specOf(
      {
        'tools/get.yaml': shopTool('get_order', '/echo/orders/${order_id}').replace(
          'method: POST',
          'method: PUT',
        ),
      },
      'get_order',
    );
    await spec.run({ order_id: '../../admin?x=1' }, toolContext(world.org.org));
    expect(world.server.received.map((request) => request.target)).toEqual([
      '/echo/orders/..%2F..%2Fadmin%3Fx%3D1',
    ]);
  });

  it('reports an HTTP error status as a typed failure with an excerpt of the body', async () => {
    const spec = await specOf({ 'tools/fail.yaml': shopTool('failing', '/status/503') }, 'failing');
    expect(await spec.run({ order_id: 'o-7' }, toolContext(world.org.org))).toEqual(
      toolFailure('HTTP 503: {"message":"failed with 503","status":"body-status"}', {
        kind: 'server',
        status: 503,
        retryable: true,
      }),
    );
  });

  it('cuts a large body down for the model and says so', async () => {
    const spec = await specOf({ 'tools/big.yaml': shopTool('big', '/big') }, 'big');
    const output = JSON.parse((await spec.run({ order_id: 'o-7' }, toolContext(world.org.org))).output ?? '');
    expect(output.truncated).toBe(true);
    expect(output.body).toHaveLength(32 * 1024);
  });

  it('reports refusals of the network primitive as failures', async () => {
    const spec = await specOf({ 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') }, 'echo_order', {
      http: loopbackHttp([]),
    });
    const result = await spec.run({ order_id: 'o-7' }, toolContext(world.org.org));
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^echo_order: the request was not completed \(dns_failed\)/);
  });
});

describe('OpenClaw response shaping', () => {
  const openClaw = (route: string) => `
name: order_status
description: Ask for an order's status
parameters:
  order_id: {type: string, required: true}
request:
  method: GET
  url: "http://${HOST}:PORT${route}"
  headers: {apikey: "{{env.SHOP_KEY}}"}
response:
  summary: "Order {{params.order_id}}: {{response.method}} {{response.target}} key={{response.missing}}"
  error_template: "Failed ({{response.status}}): {{response.message}}"
allowed_hosts: ["${HOST}"]
`;

  it('renders the summary from the top-level fields of a JSON response', async () => {
    const spec = await specOf({ 'tools/status.yaml': openClaw('/echo/status') }, 'order_status');
    const output = JSON.parse((await spec.run({ order_id: 'o-9' }, toolContext(world.org.org))).output ?? '');
    expect(output.summary).toBe('Order o-9: GET /echo/status key=');
    expect(output.body.headers.apikey).toBe('[REDACTED]');
  });

  it('renders the error template with the HTTP status, even when the body has a status field', async () => {
    const spec = await specOf({ 'tools/status.yaml': openClaw('/status/404') }, 'order_status');
    expect(await spec.run({ order_id: 'o-9' }, toolContext(world.org.org))).toEqual(
      toolFailure('Failed (404): failed with 404', { kind: 'not_found', status: 404, retryable: false }),
    );
  });

  it('reads a text response as message and value', async () => {
    const spec = await specOf(
      { 'tools/status.yaml': openClaw('/text').replace('{{response.method}}', '{{response.message}}') },
      'order_status',
    );
    const output = JSON.parse((await spec.run({ order_id: 'o-9' }, toolContext(world.org.org))).output ?? '');
    expect(output).toEqual({ status: 200, summary: 'Order o-9: plain answer  key=', body: 'plain answer' });
  });
});

describe('delegation', () => {
  const wrapper = (name: string, target: string) => `
name: ${name}
description: Wraps ${target}
parameters:
  type: object
  properties: {id: {type: string}}
  required: [id]
implementation:
  primitive: ${target}
  args: {order_id: "\${id}", note: "from ${name}"}
`;

  it('calls another composed tool with rendered arguments, and takes its kind', async () => {
    const spec = await specOf(
      {
        'tools/echo.yaml': shopTool('echo_order', '/echo/orders'),
        'agents/somi/api-tools/wrap.yaml': wrapper('quick_echo', 'echo_order'),
      },
      'quick_echo',
    );
    expect(spec.kind).toBe('network');
    const result = await spec.run({ id: 'o-3' }, toolContext(world.org.org));
    expect(result.success).toBe(true);
    expect(JSON.parse(world.server.received[0]?.body ?? '')).toEqual({
      order: 'o-3',
      note: 'from quick_echo',
    });
  });

  it('calls a registered tool by name and takes its kind', async () => {
    const seen: unknown[] = [];
    const builtin: ToolSpec = {
      name: 'memory_write',
      kind: 'memory',
      title: 'Remember',
      definition: { name: 'memory_write', description: 'Remember', parameters: { type: 'object' } },
      run: async (args) => {
        seen.push(args);
        return toolSuccess('remembered');
      },
    };
    const spec = await specOf(
      { 'tools/wrap.yaml': wrapper('remember_order', 'memory_write') },
      'remember_order',
      {
        lookupTool: (name) => (name === 'memory_write' ? builtin : undefined),
      },
    );
    expect(spec.kind).toBe('memory');
    expect(await spec.run({ id: 'o-4' }, toolContext(world.org.org))).toEqual(toolSuccess('remembered'));
    expect(seen).toEqual([{ order_id: 'o-4', note: 'from remember_order' }]);
  });

  it('leaves out tools whose delegate does not exist or whose name a built-in has', async () => {
    const builtin = (name: string): ToolSpec => ({
      name,
      kind: 'file',
      title: name,
      definition: { name, description: name, parameters: {} },
      run: async () => toolSuccess(''),
    });
    const set = await toolset(
      {
        'tools/a.yaml': wrapper('dangling', 'no_such_tool'),
        'tools/b.yaml': wrapper('file_read', 'echo_order'),
        'tools/c.yaml': shopTool('echo_order', '/echo'),
      },
      { lookupTool: (name) => (name === 'file_read' ? builtin(name) : undefined) },
    );
    expect(set.entries.map((entry) => entry.spec.name)).toEqual(['echo_order']);
    expect(set.problems.map((problem) => [problem.source.file, problem.message])).toEqual([
      ['tools/a.yaml', 'dangling ends in no_such_tool, which is not a tool here'],
      ['tools/b.yaml', 'file_read is the name of a built-in tool; give the composed tool another name'],
    ]);
  });

  it('is ready only when every tool on its chain has its secrets', async () => {
    const set = await toolset(
      {
        'tools/echo.yaml': shopTool('echo_order', '/echo/orders'),
        'tools/wrap.yaml': wrapper('quick_echo', 'echo_order'),
      },
      { lookup: secretTable({}) },
    );
    expect(set.entries.map((entry) => [entry.spec.name, entry.readiness.ready])).toEqual([
      ['echo_order', false],
      ['quick_echo', false],
    ]);
    const result = await set.entries[1]?.spec.run({ id: 'o-1' }, toolContext(world.org.org));
    expect(result).toEqual(
      toolFailure('echo_order is not set up: missing config/secret SHOP_KEY', { kind: 'missing_key' }),
    );
  });

  it('stops a cycle or an over-deep chain at run time too', async () => {
    const set = await toolset({ 'tools/echo.yaml': shopTool('echo_order', '/echo/orders') });
    const tool = set.entries[0]?.tool;
    if (!tool) throw new Error('echo_order did not load');
    const environment = {
      lookup: secretTable({ SHOP_KEY: KEY }),
      refusal: refusesNothing,
      http: loopbackHttp([HOST]),
      resolve: () => undefined,
    };
    expect(
      await runComposedTool(tool, { order_id: 'o' }, toolContext(world.org.org), environment, [
        'a',
        'echo_order',
      ]),
    ).toEqual(toolFailure('delegation cycle: a → echo_order → echo_order'));
    const deep = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];
    expect(
      await runComposedTool(tool, { order_id: 'o' }, toolContext(world.org.org), environment, deep),
    ).toEqual(toolFailure(`delegation is deeper than 8 tools: ${[...deep, 'echo_order'].join(' → ')}`));
    expect(world.server.received).toEqual([]);
  });
});
