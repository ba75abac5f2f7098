import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

function editResume(org: string, agent: string, edit: (resume: any) => void): void {
  const file = join(org, 'agents', agent, 'resume.json');
  const resume = JSON.parse(readFileSync(file, 'utf8'));
  edit(resume);
  writeFileSync(file, JSON.stringify(resume, null, 2));
}

describe('run.readiness', () => {
  it('names each agent that will not run and why, and each tool that needs the network the org has off', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    expect(valueOf(await harness.dispatch('run.readiness', {}))).toEqual({ blocked: [], warnings: [] });

    editResume(org, 'writer', (resume) => (resume.model.key = 'not-there'));
    editResume(org, 'researcher', (resume) => (resume.credits.max_credits = 0));
    editResume(org, 'manager', (resume) => resume.permissions.tools.push('http_request'));
    expect(valueOf(await harness.dispatch('run.readiness', {}))).toEqual({
      blocked: [
        { agent: 'researcher', reason: expect.stringContaining('no credits left') },
        { agent: 'writer', reason: expect.stringContaining('its model "not-there" is not in') },
      ],
      warnings: [{ agent: 'manager', reason: expect.stringContaining('needs network access, which is off') }],
    });
  });
});
