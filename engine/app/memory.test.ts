import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { editMemory } from './memory';
import { orgContextOf } from './test-support/org-context-of';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  orgs.cleanup();
});

async function open(org: string) {
  const trust = await trustAsIs(org);
  const engine = await OrgEngine.open({ trust, orgPath: org, env: {} });
  engines.push(engine);
  return { engine, context: orgContextOf(engine, trust) };
}

describe('the person’s memory edits', () => {
  it('wait while another program runs the org, and say so', async () => {
    const org = orgs.build({ 'agents/scout/resume.json': resume('scout') });
    const elsewhere = await open(org);
    expect(await elsewhere.engine.claimRun()).toEqual({ ok: true, value: undefined });
    const here = await open(org);
    expect(
      await editMemory(here.context, { action: 'set', agent: 'scout', key: 'plan', value: 'x' }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'busy',
        message: expect.stringContaining('scout’s memory can be changed once that run ends'),
      },
    });
    expect(existsSync(join(org, 'agents', 'scout', 'memory', 'plan.json'))).toBe(false);
  });
});
