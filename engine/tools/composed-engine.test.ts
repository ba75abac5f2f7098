import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loopbackTransport } from '../net/test-support/loopback-network';
import { guardedLoopbackNetwork } from '../net/test-support/guarded-loopback-network';
import { OrgEngine } from '../run/org-engine';
import { envSecretStore } from '../secrets/env-secret-store';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { filesUnder } from '../../test/test-support/files-under';

const SECRET = 'sk-planted-3f9c1d7e2b';
const orgs = tempOrgs();
afterAll(() => orgs.cleanup());
const loopback = guardedLoopbackNetwork();

/** An AgentClash-dialect tool that sends a secret to a literal host and asks the server to echo it back. */
function echoTool(port: number, route: string): string {
  return `
name: echo_order
description: Send an order to the shop and get the request echoed back
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
    url: http://api.example.test:${port}${route}
    headers:
      X-Api-Key: \${secrets.SHOP_KEY}
      Authorization: Bearer \${secrets.SHOP_KEY}
    body: {order: "\${order_id}", key: "\${secrets.SHOP_KEY}"}
`;
}

async function engineWith(secret: string | undefined, route = '/echo') {
  const org = orgs.build({
    'tools/echo_order.yaml': echoTool(loopback.network.port, route),
    'lemming/config/policy.json': { network: { enabled: true } },
    'agents/buyer/resume.json': resume('buyer', {
      permissions: { read_outboxes: [], tools: ['echo_order'] },
    }),
  });
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
    secrets: envSecretStore(secret === undefined ? {} : { LEMMING_SECRET_SHOP_KEY: secret }),
    httpTransport: loopbackTransport(),
  });
  return { engine, org };
}

describe('a composed tool in the engine', () => {
  it('is unavailable, with the missing secret as the reason, until the secret is set', async () => {
    const { engine } = await engineWith(undefined);
    try {
      const verdict = (await engine.explainTools('buyer')).find((tool) => tool.name === 'echo_order')!;
      expect(verdict).toMatchObject({ available: false, kind: 'network' });
      expect(verdict.layers.find((layer) => !layer.passed)).toMatchObject({
        layer: 'readiness',
        reason: expect.stringMatching(/SHOP_KEY/),
      });
    } finally {
      engine.close();
    }
  });

  it('sends its secret, and the echoed secret appears in no result, no file of the org and not in the timeline', async () => {
    loopback.network.reset();
    const { engine, org } = await engineWith(SECRET);
    const results: unknown[] = [];
    try {
      results.push(await engine.callTool('buyer', 'echo_order', { order_id: 'A-1' }));
      results.push(await engine.callTool('buyer', 'echo_order', { order_id: SECRET }));
    } finally {
      engine.close();
    }
    const received = loopback.network.publicServer.requests[0]!;
    expect(received.headers['x-api-key']).toBe(SECRET);
    expect(JSON.stringify(results[0])).toMatch(/"success":true/);
    for (const result of results) expect(JSON.stringify(result)).not.toContain(SECRET);
    for (const file of filesUnder(org)) {
      expect(readFileSync(file).includes(Buffer.from(SECRET)), file).toBe(false);
    }
  });
});
