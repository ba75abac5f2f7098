import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadComposedTools } from './loader';
import {
  loopbackHttp,
  secretTable,
  startServiceServer,
  tempOrg,
  toolContext,
  type ServiceServer,
} from './test-support/composed-world';
import { composedToolSpecs } from './tool-specs';
import { refusesNothing } from '../../api/grant-refusal';

const KEY = 'stored-key-0b7e51d9c4';
const HOST = 'api.shop.test';

let server: ServiceServer;
beforeAll(async () => {
  server = await startServiceServer();
});
afterAll(() => server.close());

function openClaw(url: string, extra = ''): string {
  return [
    'name: get_order',
    'description: Fetch one order',
    'parameters:',
    '  order_id:',
    '    type: string',
    'request:',
    '  method: GET',
    `  url: "${url}"`,
    extra,
    'allowed_hosts:',
    `  - ${HOST}`,
    `  - "*.${HOST}"`,
  ].join('\n');
}

async function loaded(text: string) {
  const org = await tempOrg({ 'tools/get_order.yaml': text });
  try {
    return { org: org.org, load: await loadComposedTools(org.org) };
  } finally {
    await org.cleanup();
  }
}

/** Issue 10, escape 4: a stored setting or secret must not be written into any part of a URL. */
describe('a setting or secret in a URL', () => {
  const base = () => `http://${HOST}:${server.port}`;
  const attempts = () => [
    ['the path', `${base()}/x/{{env.KEY}}`],
    ['a path segment with text around it', `${base()}/orders/key-{{env.KEY}}.json`],
    ['the query', `${base()}/x?k={{env.KEY}}`],
    ['the fragment', `${base()}/x#{{env.KEY}}`],
    ['the host', `http://{{env.KEY}}.${HOST}:${server.port}/x`],
    ['the scheme', `{{env.KEY}}://${HOST}/x`],
    ['the user info', `http://{{env.KEY}}@${HOST}/x`],
    ['the port', `http://${HOST}:{{env.KEY}}/x`],
  ];

  for (const [where, url] of [
    ['the path', 'PATH'],
    ['a path segment with text around it', 'SEGMENT'],
    ['the query', 'QUERY'],
    ['the fragment', 'FRAGMENT'],
    ['the host', 'HOST'],
    ['the scheme', 'SCHEME'],
    ['the user info', 'USERINFO'],
    ['the port', 'PORT'],
  ] as const) {
    it(`is refused when the tool loads: ${where}`, async () => {
      const template = attempts().find(([name]) => name === where)![1]!;
      const { load } = await loaded(openClaw(template));
      expect(load.tools, url).toEqual([]);
      expect(load.problems).toEqual([
        expect.objectContaining({ field: 'request.url', message: expect.stringContaining('{{env.KEY}}') }),
      ]);
      expect(load.problems[0]?.message).toMatch(/headers or the body/);
    });
  }

  it('is refused for an AgentClash secret anywhere in the URL', async () => {
    const text = [
      'name: get_order',
      'description: Fetch one order',
      'parameters: {type: object, properties: {}}',
      'implementation:',
      '  primitive: http_request',
      '  args:',
      '    method: GET',
      `    url: http://${HOST}/v1/\${secrets.KEY}/orders`,
    ].join('\n');
    const { load } = await loaded(text);
    expect(load.tools).toEqual([]);
    expect(load.problems[0]?.message).toMatch(/puts a secret in the URL/);
  });

  it('allows a whole base URL from a setting at the very start, but never one that is also sent as a credential', async () => {
    expect((await loaded(openClaw('{{env.BASE}}/orders'))).load.problems).toEqual([]);
    const credential = await loaded(
      openClaw('{{env.KEY}}/orders', '  headers:\n    X-Api-Key: "{{env.KEY}}"'),
    );
    expect(credential.load.problems).toEqual([
      expect.objectContaining({
        field: 'request.url',
        message: expect.stringMatching(/^\{\{env\.KEY\}\} is also sent as a credential/),
      }),
    ]);
  });

  it('sends nothing when a base URL setting holds more than scheme, host and port (a stored key smuggled into the path)', async () => {
    const { load } = await loaded(openClaw('{{env.BASE}}/orders'));
    const toolset = composedToolSpecs(load.tools, {
      lookup: secretTable({ BASE: `http://${HOST}:${server.port}/x/${KEY}` }),
      refusal: refusesNothing,
      http: loopbackHttp([HOST]),
    });
    const before = server.received.length;
    const result = await toolset.entries[0]!.spec.run({}, toolContext('/org'));
    expect(result).toMatchObject({ success: false });
    expect(result.error).toMatch(/the setting BASE must be only a scheme, host and port/);
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(server.received.length).toBe(before);
  });

  it('puts the base URL in the redaction set of the call: every value that enters a request is a secret of the call', async () => {
    const { load } = await loaded(openClaw('{{env.BASE}}/echo'));
    const value = `http://${HOST}:${server.port}`;
    const sent: (readonly string[])[] = [];
    const http = loopbackHttp([HOST]);
    const toolset = composedToolSpecs(load.tools, {
      lookup: secretTable({ BASE: value }),
      refusal: refusesNothing,
      http: (call) => {
        sent.push(call.secretValues);
        return http(call);
      },
    });
    const result = await toolset.entries[0]!.spec.run({}, toolContext('/org'));
    expect(result.success).toBe(true);
    expect(sent).toEqual([[value]]);
  });
});
