import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../engine/api/result';
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
    expect(valueOf(await harness.dispatch('run.readiness', {}))).toEqual({
      notTrusted: null,
      blocked: [],
      warnings: [],
    });

    editResume(org, 'writer', (resume) => (resume.model.key = 'not-there'));
    editResume(org, 'researcher', (resume) => (resume.credits.max_credits = 0));
    editResume(org, 'manager', (resume) => resume.permissions.tools.push('http_request'));
    expect(valueOf(await harness.dispatch('run.readiness', {}))).toEqual({
      notTrusted: null,
      blocked: [
        {
          agent: 'researcher',
          reason: expect.stringContaining('no credits left'),
          detail: null,
          fixIn: null,
          state: { kind: 'out_of_credits', words: expect.any(String) },
        },
        {
          agent: 'writer',
          reason:
            'its model not-there is not in the org’s list of models: add it in Settings, under Models and providers',
          detail: expect.stringContaining('its model "not-there" is not in lemming/config/models.json'),
          fixIn: 'settings',
          state: expect.objectContaining({ kind: 'will_not_run' }),
        },
      ],
      warnings: [
        {
          agent: 'manager',
          reason: expect.stringContaining('needs network access, which is off'),
          detail: null,
          fixIn: null,
        },
      ],
    });
  });

  it('each blocked line carries the state the graph, the list and the agent page show', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    editResume(org, 'writer', (resume) => (resume.model.key = 'not-there'));
    const { blocked } = valueOf<{ blocked: { agent: string; state: unknown }[] }>(
      await harness.dispatch('run.readiness', {}),
    );
    const graph = valueOf<{ nodes: { name: string; state: unknown }[] }>(
      await harness.dispatch('org.graph', {}),
    );
    const list = valueOf<{ name: string; state: unknown }[]>(await harness.dispatch('org.agents', {}));
    const page = valueOf<{ state: unknown }>(await harness.dispatch('agent.get', { agent: 'writer' }));
    expect(blocked.map((line) => line.agent)).toEqual(['writer']);
    expect(graph.nodes.find((node) => node.name === 'writer')?.state).toEqual(blocked[0]?.state);
    expect(list.find((agent) => agent.name === 'writer')?.state).toEqual(blocked[0]?.state);
    expect(page.state).toEqual(blocked[0]?.state);
  });
});

describe('work on an org that is closed under it', () => {
  it('answers that the org was closed, and logs no error', async () => {
    const logged: unknown[] = [];
    const harness = await harnesses.create({ logError: (_context, error) => logged.push(error) });
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    let carryOn!: () => void;
    const paused = new Promise<void>((resolve) => (carryOn = resolve));
    // As run.readiness does: it reads files first, then the org's database.
    const answer = harness.host.withSession(async (session) => {
      await paused;
      return ok(session.engine.ledger.balance('manager'));
    });
    await harness.dispatch('org.close', {});
    carryOn();
    expect(await answer).toEqual({
      ok: false,
      error: { code: 'no_org_open', message: `${org} was closed before this was done.` },
    });
    expect(logged).toEqual([]);
  });
});
