import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loopbackTransport } from '../net/test-support/loopback-network';
import { guardedLoopbackNetwork } from '../net/test-support/guarded-loopback-network';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const orgs = tempOrgs();
afterAll(() => orgs.cleanup());
const loopback = guardedLoopbackNetwork();

async function engineFor(policy: Record<string, unknown> | null) {
  const org = orgs.build({
    'agents/scout/resume.json': resume('scout', {
      permissions: { read_outboxes: [], tools: ['http_request'] },
    }),
    ...(policy ? { 'lemming/config/policy.json': policy } : {}),
  });
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
    httpTransport: loopbackTransport(),
  });
  return { engine, org };
}

describe('http_request as an agent tool', () => {
  it('is refused by the policy while the org has network off (the default), with the fix', async () => {
    const { engine } = await engineFor(null);
    try {
      const verdict = (await engine.explainTools('scout')).find((tool) => tool.name === 'http_request')!;
      expect(verdict).toMatchObject({ available: false, fix: { changes: [{ kind: 'enable_network' }] } });
      const result = await engine.callTool('scout', 'http_request', {
        method: 'GET',
        url: loopback.network.url('api.example.test', '/hello'),
      });
      expect(result).toMatchObject({ success: false, error: expect.stringMatching(/network access is off/) });
      expect(loopback.network.publicServer.requests).toHaveLength(0);
    } finally {
      engine.close();
    }
  });

  it('reaches a public host once the org enables network, and still refuses internal addresses', async () => {
    loopback.network.reset();
    const { engine, org } = await engineFor({ network: { enabled: true } });
    try {
      const ok = await engine.callTool('scout', 'http_request', {
        method: 'GET',
        url: loopback.network.url('api.example.test', '/hello'),
      });
      expect(ok.success).toBe(true);
      expect(JSON.parse(ok.output!)).toMatchObject({
        status: 200,
        body: expect.stringContaining('hello from 127.0.0.2'),
      });
      const internal = await engine.callTool('scout', 'http_request', {
        method: 'GET',
        url: loopback.network.url('loop.example.test', '/hello'),
      });
      expect(internal.success).toBe(false);
      expect(loopback.network.forbiddenServer.requests).toHaveLength(0);
      // Turning the org's network off again takes effect at the next call.
      writeFileSync(join(org, 'lemming/config/policy.json'), JSON.stringify({ network: { enabled: false } }));
      expect(
        (
          await engine.callTool('scout', 'http_request', {
            method: 'GET',
            url: loopback.network.url('api.example.test', '/hello'),
          })
        ).success,
      ).toBe(false);
    } finally {
      engine.close();
    }
  });
});
