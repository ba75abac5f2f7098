import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ADDRESS, loopbackTransport } from '../net/test-support/loopback-network';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { envSecretStore } from '../secrets/env-secret-store';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { filesUnder } from '../../test/test-support/files-under';

/** A key with characters JSON escapes, so a server's JSON echo spells it differently from how it was sent. */
const SECRET = 'tok-"9f2c\\71ab"-e3d5a0b8c6';
const JSON_SPELLING = JSON.stringify(SECRET).slice(1, -1);
/** A stored secret no tool sends. */
const OTHER_SECRET = 'tok-other-Fy4Kd8Vn2Qs6';

/**
 * A service that puts what it received into its answer where the tool will cut it: at the 500
 * characters of an error excerpt, the 32 KiB of an output, and the 1 MiB the tool reads at most.
 */
function echoNearTheCut(request: IncomingMessage, response: ServerResponse): void {
  const key = String(request.headers['x-api-key'] ?? '');
  const echoed = JSON.stringify(key).slice(1, -1);
  const route = request.url ?? '';
  received.push(`${request.method} ${route}`);
  if (route === '/moved') {
    response.writeHead(307, { location: `http://other.example.test:${port}/taken` });
    response.end();
  } else if (route === '/error') {
    response.writeHead(500, { 'content-type': 'text/plain' });
    response.end(`${'e'.repeat(490)}${echoed}${'e'.repeat(100)}`);
  } else if (route.startsWith('/stored')) {
    // A stored secret the call never sent (another service's key the server knows), plain or base64, at a cut.
    const [, , spelling, limit, kept] = route.split('/');
    const other = spelling === 'base64' ? Buffer.from(OTHER_SECRET).toString('base64') : OTHER_SECRET;
    response.writeHead(limit === '500' ? 500 : 200, { 'content-type': 'text/plain' });
    response.end(`${'s'.repeat(Number(limit) - Number(kept))}${other}${'s'.repeat(100)}`);
  } else if (route === '/output') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`${'o'.repeat(32 * 1024 - 12)}${echoed}${'o'.repeat(100)}`);
  } else {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`${'b'.repeat(1024 * 1024 - 10)}${echoed}`);
  }
}

const tool = (port: number, route: string) => `
name: lookup${route.replace('/', '_')}
description: Look something up
parameters: {type: object, properties: {}}
implementation:
  primitive: http_request
  args:
    method: GET
    url: http://api.example.test:${port}${route}
    headers: {X-Api-Key: "\${secrets.SHOP_KEY}"}
`;

/** Every run of the secret's leading characters at least this long, in any spelling the engine redacts. */
function leakedPrefixes(text: string): string[] {
  const found: string[] = [];
  for (const spelling of [SECRET, JSON_SPELLING])
    for (let length = 4; length <= spelling.length; length += 1)
      if (text.includes(spelling.slice(0, length))) found.push(spelling.slice(0, length));
  return found;
}

let server: Server;
let port = 0;
const received: string[] = [];
const orgs = tempOrgs();
beforeAll(async () => {
  server = createServer(echoNearTheCut);
  await new Promise<void>((resolve) => server.listen(0, PUBLIC_ADDRESS, resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  orgs.cleanup();
});

async function callOnce(name: string, toolText: string, args: Record<string, unknown> = {}) {
  const org = orgs.build({
    [`tools/${name}.yaml`]: toolText,
    'lemming/config/policy.json': { network: { enabled: true } },
    'agents/buyer/resume.json': resume('buyer', { permissions: { read_outboxes: [], tools: [name] } }),
  });
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
    secrets: envSecretStore({ LEMMING_SECRET_SHOP_KEY: SECRET, LEMMING_SECRET_OTHER_KEY: OTHER_SECRET }),
    httpTransport: loopbackTransport(),
  });
  try {
    return {
      org,
      result: await engine.callTool('buyer', name, args),
      verdicts: await engine.explainTools('buyer'),
    };
  } finally {
    engine.close();
  }
}

function expectNoSecretOnDisk(org: string): void {
  for (const file of filesUnder(org)) {
    const bytes = readFileSync(file).toString('latin1');
    expect(
      leakedPrefixes(bytes).filter((prefix) => prefix.length >= 8),
      file,
    ).toEqual([]);
  }
}

/** Issue 10, escape 4, through the engine: the tool does not load, so it is never offered or run. */
describe('a composed tool with a stored secret in its URL path', () => {
  it('is not loaded, cannot be called, and sends nothing', async () => {
    const text = [
      'name: leak_path',
      'description: Put the key in the path',
      'parameters: {}',
      'request:',
      '  method: GET',
      `  url: "http://api.example.test:${port}/x/{{env.SHOP_KEY}}"`,
      'allowed_hosts:',
      '  - api.example.test',
    ].join('\n');
    const before = received.length;
    const { org, result, verdicts } = await callOnce('leak_path', text);
    expect(result).toMatchObject({ success: false, error: 'Unknown tool: leak_path' });
    expect(verdicts.map((verdict) => verdict.name)).not.toContain('leak_path');
    expect(received.length).toBe(before);
    expectNoSecretOnDisk(org);
  });
});

/** Issue 10, escape 5, through the engine: the secret-bearing body is not resent to another origin. */
describe('a composed tool whose request body carries a secret, redirected by 307 to another site', () => {
  it('fails with a clear error and sends the body nowhere else', async () => {
    const text = `
name: post_order
description: Post an order
parameters: {type: object, properties: {}}
implementation:
  primitive: http_request
  args:
    method: POST
    url: http://api.example.test:${port}/moved
    body: {key: "\${secrets.SHOP_KEY}"}
`;
    const { org, result } = await callOnce('post_order', text);
    expect(result.success).toBe(false);
    expect(result.error).toContain('the body carries a secret, so it was not sent');
    expect(received.filter((line) => line.endsWith('/taken'))).toEqual([]);
    expect(leakedPrefixes(JSON.stringify(result))).toEqual([]);
    expectNoSecretOnDisk(org);
  });
});

/** Issue 10, escape 6: a result cut near an echoed secret must not keep the secret's first characters. */
describe('a composed tool result cut near an echoed secret', () => {
  for (const route of ['/error', '/output', '/limit']) {
    it(`keeps no prefix of the secret in the result, the files or the timeline (${route})`, async () => {
      const name = `lookup${route.replace('/', '_')}`;
      const { org, result } = await callOnce(name, tool(port, route));
      expect(JSON.stringify(result).length).toBeGreaterThan(400);
      expect(leakedPrefixes(`${result.output ?? ''}\n${result.error ?? ''}`)).toEqual([]);
      expectNoSecretOnDisk(org);
    });
  }
});

/** Issue 25, finding 3: a stored secret the call did not send, echoed at a cut, keeps no first characters either. */
describe('a composed tool result cut near a stored secret it never sent', () => {
  for (const spelling of ['plain', 'base64'])
    for (const limit of [500, 32 * 1024])
      it(`keeps none of its first characters at the cut (${spelling}, ${limit})`, async () => {
        for (const kept of [8, 13, OTHER_SECRET.length - 1]) {
          const route = `/stored/${spelling}/${limit}/${kept}`;
          const { result } = await callOnce(
            `lookup_stored_${kept}`,
            tool(port, route).replace(/^name: .*$/m, `name: lookup_stored_${kept}`),
          );
          const shown = `${result.output ?? ''}\n${result.error ?? ''}`;
          expect(shown).toContain('ssssssss');
          const other = spelling === 'base64' ? Buffer.from(OTHER_SECRET).toString('base64') : OTHER_SECRET;
          expect(shown).not.toContain(other.slice(0, 8));
        }
      });
});
