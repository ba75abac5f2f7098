import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverAgents } from '../org/discover';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

async function withCreator(permissions: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const org = orgs.build({
    'agents/founder/resume.json': resume('founder', {
      permissions: {
        read_outboxes: ['human', 'ops'],
        tools: ['create_agent', 'memory_read', 'file_read'],
        ...permissions,
      },
      ...extra,
    }),
    'agents/ops/resume.json': resume('ops'),
  });
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
  });
  return { org, engine };
}

describe('create_agent', () => {
  it('is granted by permission, whatever the agent is called, and writes a valid resume the engine discovers', async () => {
    const { org, engine } = await withCreator({});
    try {
      const result = await engine.callTool('founder', 'create_agent', {
        name: 'analyst',
        title: 'Analyst',
        instructions: 'Analyse.',
        tools: ['memory_read'],
        read_outboxes: ['ops'],
        schedule: { run_every_n_ticks: 2, phase_offset: 1 },
      });
      expect(result).toMatchObject({ success: true });
      const created = (await discoverAgents(org)).find((agent) => agent.folder === 'analyst');
      expect(created).toMatchObject({
        valid: true,
        resume: {
          name: 'analyst',
          title: 'Analyst',
          permissions: { tools: ['memory_read'], read_outboxes: ['ops'] },
          schedule: { run_every_n_ticks: 2, phase_offset: 1 },
        },
      });
      expect(JSON.parse(readFileSync(join(org, 'agents/analyst/resume.json'), 'utf8')).created_by).toBe(
        'founder',
      );
      // Its own identity, which its approval settings are kept for.
      expect(readFileSync(join(org, 'agents/analyst/.agent-id'), 'utf8')).toMatch(/^[0-9a-f-]{36}\n$/);
    } finally {
      engine.close();
    }
  });

  it('never gives the new agent a tool or an outbox its creator lacks, and never more file access', async () => {
    const { org, engine } = await withCreator({ file_access: { allow_read: ['shared'], allow_write: [] } });
    try {
      expect(
        await engine.callTool('founder', 'create_agent', { name: 'rogue', tools: ['shell'] }),
      ).toMatchObject({
        success: false,
        error: expect.stringMatching(/tool "shell" \(you do not have it\)/),
      });
      expect(
        await engine.callTool('founder', 'create_agent', { name: 'rogue', read_outboxes: ['*'] }),
      ).toMatchObject({ success: false, error: expect.stringMatching(/reading "\*"/) });
      expect(
        await engine.callTool('founder', 'create_agent', { name: 'rogue', read_outboxes: ['secret_agent'] }),
      ).toMatchObject({ success: false });
      expect((await discoverAgents(org)).some((agent) => agent.folder === 'rogue')).toBe(false);

      expect(
        await engine.callTool('founder', 'create_agent', { name: 'helper', tools: ['file_read'] }),
      ).toMatchObject({ success: true });
      const helper = JSON.parse(readFileSync(join(org, 'agents/helper/resume.json'), 'utf8'));
      expect(helper.permissions.file_access).toEqual({ allow_read: ['shared'], allow_write: [] });
    } finally {
      engine.close();
    }
  });

  it('is refused to an agent whose resume does not grant it, even one named hr', async () => {
    const org = orgs.build({
      'agents/hr/resume.json': resume('hr', { permissions: { read_outboxes: [], tools: ['memory_read'] } }),
    });
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
    });
    try {
      expect(await engine.callTool('hr', 'create_agent', { name: 'x' })).toMatchObject({
        success: false,
        error: expect.stringMatching(/not permitted for hr/),
      });
    } finally {
      engine.close();
    }
  });

  it('refuses a name that is taken or not a valid agent name', async () => {
    const { org, engine } = await withCreator({});
    try {
      expect(await engine.callTool('founder', 'create_agent', { name: 'ops' })).toMatchObject({
        success: false,
        error: "Agent 'ops' already exists",
      });
      // An agent whose folder has another name holds it too: a second one would take over its settings.
      writeFileSync(join(org, 'agents/ops/resume.json'), JSON.stringify(resume('operator')));
      expect(await engine.callTool('founder', 'create_agent', { name: 'operator' })).toMatchObject({
        success: false,
        error: "Agent 'operator' already exists",
      });
      expect(await engine.callTool('founder', 'create_agent', { name: '../escape' })).toMatchObject({
        success: false,
        error: expect.stringMatching(/^Invalid arguments for create_agent: name/),
      });
    } finally {
      engine.close();
    }
  });
});
