import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG, ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  await harnesses.cleanup();
});

const KEY = 'rk-7Hq2Zp9Wm4Lx8Vc3';
const restFile = (org: string) => join(org, 'lemming', 'config', 'rest-apis.json');

async function openDemo(): Promise<{ harness: IpcHarness; org: string }> {
  const harness = await harnesses.create();
  const org = harness.copy(DEMO_ORG);
  valueOf(await harness.dispatch('org.open', { path: org }));
  return { harness, org };
}

/** A loopback API that records each request and answers 200 only with the key as a bearer token. */
async function api(): Promise<{ port: number; seen: { url: string; headers: IncomingHttpHeaders }[] }> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    const authorized = request.headers.authorization === `Bearer ${KEY}`;
    response.writeHead(authorized ? 200 : 401, { 'content-type': 'application/json' });
    response.end(JSON.stringify(authorized ? { echo: request.url, key: KEY } : { error: 'no key' }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

/** What the drawer showed for the entry written in the test below. */
const OPENED = {
  baseUrl: 'https://inventory.example/v1',
  description: '',
  authStyle: 'bearer',
  authName: null,
  methods: ['GET'],
};

const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'inventory',
  baseUrl: 'https://inventory.example/v1',
  authStyle: 'bearer',
  methods: ['GET'],
  apiKey: KEY,
  ...overrides,
});

describe('REST API connectors', () => {
  it('adds an API: the file gets the address and the secret name, the key goes to the secret store only', async () => {
    const { harness, org } = await openDemo();
    const saved = valueOf<{ id: string; secrets: { name: string; isSet: boolean }[]; tools: string[] }>(
      await harness.dispatch('connectors.saveRestApi', input()),
    );
    expect(saved).toMatchObject({
      id: 'rest:inventory',
      tools: ['inventory'],
      secrets: [{ name: 'INVENTORY_API_KEY', isSet: true }],
    });
    // Canonical JSON (two-space indent, a final newline), as every config file the app writes.
    expect(readFileSync(restFile(org), 'utf8')).toBe(
      `${JSON.stringify(
        {
          apis: {
            inventory: {
              base_url: 'https://inventory.example/v1',
              description: '',
              auth: { style: 'bearer' },
              key_secret: 'INVENTORY_API_KEY',
              methods: ['GET'],
            },
          },
        },
        null,
        2,
      )}\n`,
    );
    expect(readFileSync(harness.secretsFile, 'utf8')).toContain(KEY);
    expect(JSON.stringify(harness.responses.map((entry) => entry.response))).not.toContain(KEY);
  });

  it('changing an API keeps fields it does not know and the rest of the file byte for byte', async () => {
    const { harness, org } = await openDemo();
    mkdirSync(join(org, 'lemming', 'config'), { recursive: true });
    const before = `{
    "comment": "kept",
    "apis": {
        "inventory": {
            "base_url": "https://inventory.example/v1",
            "auth": {"style": "bearer", "realm": "stock"},
            "key_secret": "STOCK_TOKEN",
            "methods": ["GET"],
            "owner": "ops"
        }
    }
}
`;
    writeFileSync(restFile(org), before);
    valueOf(
      await harness.dispatch(
        'connectors.saveRestApi',
        input({ authStyle: 'header', authName: 'X-API-Key', methods: ['GET', 'POST'], opened: OPENED }),
      ),
    );
    const after = readFileSync(restFile(org), 'utf8');
    const parsed = JSON.parse(after) as { comment: string; apis: { inventory: Record<string, unknown> } };
    expect(parsed.comment).toBe('kept');
    expect(parsed.apis.inventory).toMatchObject({
      owner: 'ops',
      key_secret: 'STOCK_TOKEN',
      auth: { style: 'header', name: 'X-API-Key', realm: 'stock' },
      methods: ['GET', 'POST'],
    });
    // Its own indentation is kept: only changed values were rewritten.
    expect(after).toContain('\n    "comment": "kept",\n');
    expect(after).toContain('"owner": "ops"');
  });

  it('never writes over a change made to the file since the drawer opened, nor adds an API that is already there', async () => {
    const { harness, org } = await openDemo();
    valueOf(await harness.dispatch('connectors.saveRestApi', input()));
    const again = await harness.dispatch(
      'connectors.saveRestApi',
      input({ baseUrl: 'https://other.example' }),
    );
    expect(again).toMatchObject({ ok: false, error: { code: 'already_exists', issues: [{ path: 'name' }] } });
    // Someone edits the address in the file while the drawer is open.
    const edited = readFileSync(restFile(org), 'utf8').replace(
      'inventory.example/v1',
      'inventory.example/v2',
    );
    writeFileSync(restFile(org), edited);
    const stale = await harness.dispatch(
      'connectors.saveRestApi',
      input({ methods: ['GET', 'DELETE'], apiKey: undefined, opened: OPENED }),
    );
    expect(stale).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(JSON.stringify(stale)).toContain('changed since this drawer was opened');
    expect(readFileSync(restFile(org), 'utf8')).toBe(edited);
  });

  it('refuses bad fields one by one, at their names, and writes nothing', async () => {
    const { harness, org } = await openDemo();
    const answer = await harness.dispatch(
      'connectors.saveRestApi',
      input({
        name: 'Bad Name',
        baseUrl: 'ftp://x.example',
        authStyle: 'header',
        authName: 'X Key',
        apiKey: '',
      }),
    );
    expect(answer.ok).toBe(false);
    const issues = (answer as { error: { issues: { path: string }[] } }).error.issues.map(
      (issue) => issue.path,
    );
    expect(issues).toEqual(['name', 'baseUrl', 'authName', 'apiKey']);
    for (const baseUrl of ['not a url', 'https://user:pw@x.example', 'https://x.example/v1?key=1']) {
      const refused = await harness.dispatch('connectors.saveRestApi', input({ baseUrl }));
      expect(
        (refused as { error: { issues: { path: string }[] } }).error.issues.map((issue) => issue.path),
      ).toEqual(['baseUrl']);
    }
    const taken = await harness.dispatch('connectors.saveRestApi', input({ name: 'shell' }));
    expect(JSON.stringify(taken)).toContain('agents already have a tool named shell');
    expect(existsSync(restFile(org))).toBe(false);
  });

  it("the API's tool sends the key to its own host only, under its base path, and returns no key", async () => {
    const { harness, org } = await openDemo();
    const server = await api();
    const policy = join(org, 'lemming', 'config', 'policy.json');
    writeFileSync(
      policy,
      JSON.stringify({ network: { enabled: true, private_hosts: [`127.0.0.1:${server.port}`] } }),
    );
    // The private host was written by hand: the person trusts it; the API they add then keeps the trust.
    await harness.trustOpenOrg();
    valueOf(
      await harness.dispatch(
        'connectors.saveRestApi',
        input({ baseUrl: `http://127.0.0.1:${server.port}/v1` }),
      ),
    );
    valueOf(
      await harness.dispatch('tools.setEnabled', { agent: 'writer', tool: 'inventory', enabled: true }),
    );
    const call = (args: unknown) => harness.host.current()!.engine.callTool('writer', 'inventory', args);

    const good = await call({ path: '/items/42', query: { fields: 'a b' } });
    expect(good.success).toBe(true);
    expect(good.output).toContain('"echo":"/v1/items/42?fields=a+b"');
    expect(good.output).not.toContain(KEY);
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`);

    for (const path of ['/../admin', '/%2e%2e/admin', 'items', '/a b', '/a?b=1', '/a\\b'])
      expect((await call({ path })).success, path).toBe(false);
    expect(await call({ path: '/x', method: 'DELETE' })).toMatchObject({ success: false });
    expect(server.seen).toHaveLength(1);
  });

  it('removing an API removes its entry and its key', async () => {
    const { harness, org } = await openDemo();
    valueOf(await harness.dispatch('connectors.saveRestApi', input()));
    valueOf(await harness.dispatch('connectors.removeRestApi', { name: 'inventory' }));
    expect(JSON.parse(readFileSync(restFile(org), 'utf8'))).toEqual({ apis: {} });
    expect(readFileSync(harness.secretsFile, 'utf8')).not.toContain(KEY);
  });
});
