import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OrgEngine } from '../run/org-engine';
import { DEMO_ORG, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { orgTrust } from '../trust/org-trust';
import { applyOrgUpdate, planOrgUpdate } from './org-update';
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

/** Every file under `folder` but `except`, with a hash of its bytes. */
function filesOf(folder: string, except: readonly string[] = []): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const key = relative(folder, path);
      if (except.includes(key)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else files[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(folder);
  return files;
}

function editResume(org: string, agent: string, edit: (resume: Record<string, unknown>) => void) {
  const file = join(org, 'agents', agent, 'resume.json');
  const resume = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(resume);
  writeFileSync(file, JSON.stringify(resume, null, 2));
}

describe('updating an org from a newer copy', () => {
  it('updates an agent’s prompt and keeps its memory, outbox, workspace, credits and history byte for byte', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = orgs.copy(DEMO_ORG);
    editResume(template, 'writer', (resume) => {
      resume.instructions = 'You write the launch note in plain words. Send drafts to the manager.';
    });
    const { engine, context } = await open(org);
    for (let tick = 0; tick < 4; tick += 1) await engine.runTick();
    const writer = join(org, 'agents', 'writer');
    const learned = filesOf(writer, ['resume.json']);
    expect(Object.keys(learned).some((file) => file.startsWith('memory/'))).toBe(true);
    expect(Object.keys(learned).some((file) => file.startsWith('outbox/'))).toBe(true);
    const balances = engine.ledger.balances();
    const history = engine.timeline.latestSeq();

    const plan = await planOrgUpdate(org, { source: template });
    expect(plan).toMatchObject({ ok: true });
    const writerPlan = plan.ok ? plan.value.agents.find((agent) => agent.agent === 'writer') : undefined;
    expect(writerPlan).toMatchObject({
      status: 'changed',
      widens: false,
      reachAdded: [],
      changes: [{ aspect: 'instructions', words: 'Its instructions change: 1 line added, 1 line removed.' }],
    });
    expect(plan.ok && plan.value.agents.filter((agent) => agent.status !== 'unchanged').length).toBe(1);

    expect(await applyOrgUpdate(context, { source: template, agents: ['writer'] })).toEqual({
      ok: true,
      value: { updated: ['writer'], added: [], removed: [], reachAdded: [], needsTrustAgain: false },
    });
    const resume = JSON.parse(readFileSync(join(writer, 'resume.json'), 'utf8')) as Record<string, unknown>;
    expect(resume.instructions).toBe('You write the launch note in plain words. Send drafts to the manager.');
    expect(filesOf(writer, ['resume.json'])).toEqual(learned);
    expect(engine.ledger.balances()).toEqual(balances);
    expect(engine.timeline.latestSeq()).toBe(history);
    const after = await planOrgUpdate(org, { source: template });
    expect(after.ok && after.value.agents.every((agent) => agent.status === 'unchanged')).toBe(true);
  });

  it('keeps the org’s own credit caps when the newer copy has others', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = orgs.copy(DEMO_ORG);
    editResume(template, 'writer', (resume) => {
      resume.instructions = 'New.';
      resume.credits = { max_credits: 100000, soft_cap: 90000 };
    });
    const { context } = await open(org);
    expect((await applyOrgUpdate(context, { source: template, agents: ['writer'] })).ok).toBe(true);
    const resume = JSON.parse(readFileSync(join(org, 'agents', 'writer', 'resume.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(resume).toMatchObject({ instructions: 'New.', credits: { max_credits: 60, soft_cap: 30 } });
  });

  it('adds a new agent, keeps a gone one unless asked, and needs trust again when the reach grows', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = orgs.build({
      'agents/writer/resume.json': readFileSync(join(DEMO_ORG, 'agents', 'writer', 'resume.json'), 'utf8'),
      'agents/checker/resume.json': {
        name: 'checker',
        title: 'Fact checker',
        short_description: 'Checks facts',
        instructions: 'Check every claim.',
        model: { key: 'demo-scripted' },
        permissions: { read_outboxes: ['writer'], tools: ['shell'] },
        schedule: { run_every_n_ticks: 1, phase_offset: 0 },
      },
    });
    const { context } = await open(org);
    const plan = await planOrgUpdate(org, { source: template });
    const checker = plan.ok ? plan.value.agents.find((agent) => agent.agent === 'checker') : undefined;
    expect(checker?.reachAdded.map((item) => [item.kind, item.subject])).toEqual([['shell', 'checker']]);
    expect(plan.ok && plan.value.agents.map((agent) => [agent.agent, agent.status])).toEqual([
      ['checker', 'added'],
      ['human', 'removed'],
      ['manager', 'removed'],
      ['researcher', 'removed'],
      ['writer', 'unchanged'],
    ]);
    const applied = await applyOrgUpdate(context, { source: template, agents: ['checker'] });
    expect(applied).toMatchObject({
      ok: true,
      value: { added: ['checker'], removed: [], needsTrustAgain: true },
    });
    expect(applied.ok && applied.value.reachAdded.map((item) => item.subject)).toContain('checker');
    expect(existsSync(join(org, 'agents', 'manager', 'resume.json'))).toBe(true);
    expect((await orgTrust(org, context.trust)).state).toBe('changed');
  });

  it('removes an agent gone from the newer copy only when the person names it', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = orgs.copy(DEMO_ORG);
    rmSync(join(template, 'agents', 'researcher'), { recursive: true });
    const { context } = await open(org);
    expect(
      await applyOrgUpdate(context, { source: template, agents: [], remove: ['researcher'] }),
    ).toMatchObject({
      ok: true,
      value: { updated: [], added: [], removed: ['researcher'] },
    });
    expect(existsSync(join(org, 'agents', 'researcher'))).toBe(false);
    expect(readdirSync(join(org, '.lemming', 'removed-agents'))).toEqual([
      expect.stringMatching(/-researcher$/),
    ]);
  });

  it('refuses to update an agent that has nothing to update, and changes nothing', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = orgs.copy(DEMO_ORG);
    const { context } = await open(org);
    const before = filesOf(org, ['.lemming']);
    expect(
      await applyOrgUpdate(context, { source: template, agents: ['writer'], remove: ['manager'] }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('"writer", "manager"') },
    });
    expect(filesOf(org, ['.lemming'])).toEqual(before);
  });

  it('never reads a newer copy’s files through a link: a linked resume or tool folder is left out and named', async () => {
    const org = orgs.copy(DEMO_ORG);
    const template = orgs.copy(DEMO_ORG);
    const secret = join(orgs.build({ 'secret.txt': 'the person’s private notes' }), 'secret.txt');
    const writerResume = join(template, 'agents', 'writer', 'resume.json');
    rmSync(writerResume);
    symlinkSync(join(org, 'agents', 'writer', 'resume.json'), writerResume);
    symlinkSync(dirname(secret), join(template, 'agents', 'manager', 'skills'));
    const plan = await planOrgUpdate(org, { source: template });
    expect(plan.ok && plan.value.problems).toEqual([
      expect.objectContaining({
        file: '(newer copy) agents/manager/skills',
        message: expect.stringContaining('only plain files'),
      }),
      expect.objectContaining({
        file: '(newer copy) agents/writer/resume.json',
        message: 'skipped: it is a link to another file',
      }),
    ]);
    expect(plan.ok && plan.value.agents.find((agent) => agent.agent === 'writer')?.status).toBe('removed');
    expect(plan.ok && plan.value.agents.find((agent) => agent.agent === 'manager')?.status).toBe('unchanged');
  });

  it('says so when the folder is not an org or is this org', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect(await planOrgUpdate(org, { source: join(org, 'shared') })).toMatchObject({
      ok: false,
      error: { code: 'not_an_org' },
    });
    expect(await planOrgUpdate(org, { source: org })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });
});
