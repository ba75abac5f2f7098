import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());
const openDemo = () => harnesses.openDemo();

const researcherFile = (org: string) => join(org, 'agents', 'researcher', 'resume.json');

describe('agent.get and agent.update', () => {
  it('get gives the form fields, the raw text, the fields the form keeps, and the state', async () => {
    const { harness, org } = await openDemo();
    const text = readFileSync(researcherFile(org), 'utf8').replace(
      '"schedule"',
      '"x_color": "teal",\n  "schedule"',
    );
    writeFileSync(researcherFile(org), text);
    expect(valueOf(await harness.dispatch('agent.get', { agent: 'researcher' }))).toMatchObject({
      folder: 'researcher',
      file: 'agents/researcher/resume.json',
      valid: true,
      text,
      otherFields: ['x_color'],
      state: { kind: 'ready', words: 'Ready. It has not run yet.', lastTurnFailed: null },
      balance: null,
      resume: {
        title: 'Researcher',
        model: { key: 'demo-scripted', temperature: 0.2, max_tokens: 1024 },
        permissions: {
          read_outboxes: ['manager'],
          send_outboxes: ['manager'],
          file_access: null,
          tool_kinds: null,
        },
        schedule: { run_every_n_ticks: 1, phase_offset: 0 },
        credits: { max_credits: 60, soft_cap: 30 },
      },
    });
  });

  it('update rewrites only what the patch changes: unknown fields and every other byte stay', async () => {
    const { harness, org } = await openDemo();
    const before = readFileSync(researcherFile(org), 'utf8').replace(
      '"schedule"',
      '"x_color": {"hue": "teal"},\n  "schedule"',
    );
    writeFileSync(researcherFile(org), before);
    const updated = valueOf<{ resume: { title: string; schedule: unknown } }>(
      await harness.dispatch('agent.update', {
        agent: 'researcher',
        patch: { title: 'Fact finder', schedule: { run_every_n_ticks: 2 } },
      }),
    );
    expect(updated.resume).toMatchObject({
      title: 'Fact finder',
      schedule: { run_every_n_ticks: 2, phase_offset: 0 },
    });
    expect(readFileSync(researcherFile(org), 'utf8')).toBe(
      before
        .replace('"title": "Researcher"', '"title": "Fact finder"')
        .replace('"run_every_n_ticks": 1', '"run_every_n_ticks": 2'),
    );
    expect(harness.events).toContainEqual({ name: 'agents.changed', payload: { names: ['researcher'] } });
  });

  it('a change the resume cannot hold is refused with where and why, and nothing is written', async () => {
    const { harness, org } = await openDemo();
    const before = readFileSync(researcherFile(org), 'utf8');
    const refused = await harness.dispatch('agent.update', {
      agent: 'researcher',
      patch: { instructions: 'ok', model: { key: '   ' } },
    });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        issues: [{ path: 'patch.model.key', message: 'model.key must not be empty' }],
      },
    });
    writeFileSync(researcherFile(org), before.replace('"instructions":', '"instructions": 7, "x":'));
    const invalid = await harness.dispatch('agent.update', {
      agent: 'researcher',
      patch: { title: 'Still broken' },
    });
    expect(invalid).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_change',
        issues: [expect.objectContaining({ message: 'instructions must be text' })],
      },
    });
    expect(readFileSync(researcherFile(org), 'utf8')).toContain('"title": "Researcher"');
  });

  it('repairs an invalid resume when the patch makes it valid', async () => {
    const { harness, org } = await openDemo();
    writeFileSync(
      researcherFile(org),
      readFileSync(researcherFile(org), 'utf8').replace('"run_every_n_ticks": 1', '"run_every_n_ticks": 0'),
    );
    expect(valueOf(await harness.dispatch('agent.get', { agent: 'researcher' }))).toMatchObject({
      valid: false,
      state: { kind: 'invalid_resume', file: 'agents/researcher/resume.json' },
      resume: null,
    });
    const repaired = await harness.dispatch('agent.update', {
      agent: 'researcher',
      patch: { schedule: { run_every_n_ticks: 3 } },
    });
    expect(repaired).toMatchObject({
      ok: true,
      value: { valid: true, state: { kind: 'ready' }, resume: { schedule: { run_every_n_ticks: 3 } } },
    });
  });

  it('an agent that does not exist is named in the refusal', async () => {
    const { harness, org } = await openDemo();
    expect(await harness.dispatch('agent.get', { agent: 'ghost' })).toEqual({
      ok: false,
      error: { code: 'agent_not_found', message: `There is no agent named "ghost" in ${org}.` },
    });
  });
});

describe('previews', () => {
  it("the schedule preview lists the ticks an agent fires on from the org's next tick", async () => {
    const { harness } = await openDemo();
    valueOf(await harness.dispatch('run.step', {}));
    expect(
      valueOf(
        await harness.dispatch('agent.schedulePreview', {
          schedule: { run_every_n_ticks: 3, phase_offset: 1 },
          count: 4,
        }),
      ),
    ).toEqual({
      fromTick: 2,
      ticks: [4, 7, 10, 13],
      firePoint: 2 / 3,
    });
    expect(
      valueOf(
        await harness.dispatch('agent.schedulePreview', {
          schedule: { run_every_n_ticks: 2, phase_offset: -1 },
          fromTick: 0,
          count: 3,
        }),
      ),
    ).toEqual({
      fromTick: 0,
      ticks: [1, 3, 5],
      firePoint: 0.5,
    });
  });

  it('the file access preview resolves each entry as the sandbox will, links and refusals included', async () => {
    const { harness, org } = await openDemo();
    symlinkSync('/etc', join(org, 'shared', 'etc-link'));
    const { previews } = valueOf<{ previews: unknown[] }>(
      await harness.dispatch('agent.fileAccessPreview', {
        agent: 'writer',
        entries: ['shared', 'agents/writer/workspace/drafts', 'shared/etc-link', 'bad\0name'],
      }),
    );
    expect(previews[0]).toEqual({
      entry: 'shared',
      ok: true,
      canonical: join(org, 'shared'),
      display: 'shared',
      exists: true,
      otherAgents: [],
    });
    expect(previews[1]).toMatchObject({ ok: true, display: 'agents/writer/workspace/drafts', exists: false });
    expect(previews[2]).toMatchObject({ entry: 'shared/etc-link', ok: false });
    expect(previews[3]).toMatchObject({ ok: false, reason: expect.stringMatching(/NUL|control/i) });
  });
});

describe('the path editor’s verdicts, from the engine', () => {
  const preview = async (entries: string[], access: 'read' | 'write') => {
    const { harness } = await openDemo();
    return valueOf<{ previews: Record<string, unknown>[] }>(
      await harness.dispatch('agent.fileAccessPreview', { agent: 'researcher', entries, access }),
    ).previews;
  };

  it('names the other agents whose private files a grant to write would let this agent change', async () => {
    const [own, manager, agents, whole] = await preview(
      ['agents/researcher/workspace', 'agents/manager/workspace/notes', 'agents', '.'],
      'write',
    );
    expect(own).toMatchObject({ ok: true, otherAgents: [] });
    expect(manager).toMatchObject({ ok: true, otherAgents: ['manager'] });
    expect(agents).toMatchObject({
      ok: true,
      otherAgents: ['manager', 'writer'],
      writesOnlyInWorkspaces: true,
    });
    expect(whole).toMatchObject({ ok: true, otherAgents: ['manager', 'writer'] });
    const [reading] = await preview(['agents/manager/workspace'], 'read');
    expect(reading).toMatchObject({ ok: true, otherAgents: [] });
  });

  it('says that a grant to write the agent’s own folder reaches only its workspace', async () => {
    const [folder] = await preview(['agents/researcher'], 'write');
    expect(folder).toMatchObject({
      ok: true,
      writesOnlyInWorkspaces: true,
      readOnly: expect.stringContaining('except in the workspace (agents/researcher/workspace)'),
    });
  });
});

describe('org channels', () => {
  it('the graph shows every agent with its state and saved position, and permissions as edges', async () => {
    const { harness } = await openDemo();
    valueOf(await harness.dispatch('org.savePositions', { positions: { manager: { x: 100, y: -40.5 } } }));
    valueOf(await harness.dispatch('org.savePositions', { positions: { writer: { x: 1, y: 2 } } }));
    const graph = valueOf<{ nodes: any[]; edges: any[] }>(await harness.dispatch('org.graph', {}));
    expect(graph.nodes.map((node) => [node.name, node.state.kind, node.position])).toEqual([
      ['human', 'ready', null],
      ['manager', 'ready', { x: 100, y: -40.5 }],
      ['researcher', 'ready', null],
      ['writer', 'ready', { x: 1, y: 2 }],
    ]);
    expect(graph.edges).toContainEqual({ from: 'human', to: 'manager', kind: 'read', viaWildcard: false });
    expect(graph.edges).toContainEqual({
      from: 'researcher',
      to: 'manager',
      kind: 'send',
      viaWildcard: false,
    });
    expect(graph.edges).toContainEqual({ from: 'writer', to: 'human', kind: 'read', viaWildcard: true });
  });

  it("each node carries what a turn costs: credits.json's cost_per_action, else the default a first run writes", async () => {
    const { harness, org } = await openDemo();
    writeFileSync(
      join(org, 'lemming/config/credits.json'),
      JSON.stringify({ researcher: { model: 'demo-scripted', cost_per_action: 0.25, credits_left: 50 } }),
    );
    const graph = valueOf<{ nodes: any[] }>(await harness.dispatch('org.graph', {}));
    const cost = (name: string) => graph.nodes.find((node) => node.name === name)?.costPerAction;
    expect(cost('researcher')).toBe(0.25);
    expect(cost('writer')).toBe(0.01);
    writeFileSync(join(org, 'lemming/config/credits.json'), '{ not json');
    const broken = valueOf<{ nodes: any[] }>(await harness.dispatch('org.graph', {}));
    expect(broken.nodes.find((node) => node.name === 'researcher')?.costPerAction).toBeNull();
  });

  it('an agent out of credits shows as such in the graph', async () => {
    const { harness, org } = await openDemo();
    writeFileSync(
      researcherFile(org),
      readFileSync(researcherFile(org), 'utf8').replace('"max_credits": 60', '"max_credits": 0'),
    );
    valueOf(await harness.dispatch('run.step', {}));
    const graph = valueOf<{ nodes: any[] }>(await harness.dispatch('org.graph', {}));
    expect(graph.nodes.find((node) => node.name === 'researcher')).toMatchObject({
      state: { kind: 'out_of_credits' },
      balance: 0,
    });
  });

  it('creates an agent LeMMing can read, refuses a taken name, and removes and restores it', async () => {
    const { harness, org } = await openDemo();
    const created = await harness.dispatch('org.createAgent', {
      name: 'critic',
      title: 'Critic',
      instructions: 'Review drafts.',
      readOutboxes: ['writer'],
    });
    expect(created).toMatchObject({ ok: true, value: { folder: 'critic', name: 'critic', valid: true } });
    expect(JSON.parse(readFileSync(join(org, 'agents', 'critic', 'resume.json'), 'utf8'))).toMatchObject({
      name: 'critic',
      short_description: 'Critic',
      model: { key: 'demo-scripted' },
      permissions: { read_outboxes: ['writer'], tools: [] },
    });
    expect(existsSync(join(org, 'agents', 'critic', 'workspace'))).toBe(true);
    expect(await harness.dispatch('org.createAgent', { name: 'Critic', title: 'Again' })).toEqual({
      ok: false,
      error: { code: 'already_exists', message: 'There is already an agent named "critic".' },
    });

    const removed = valueOf<{ removedId: string; movedTo: string }>(
      await harness.dispatch('org.removeAgent', { agent: 'critic' }),
    );
    expect(existsSync(join(org, 'agents', 'critic'))).toBe(false);
    expect(existsSync(join(org, removed.movedTo, 'resume.json'))).toBe(true);
    expect(
      valueOf<{ name: string }[]>(await harness.dispatch('org.agents', {})).map((agent) => agent.name),
    ).not.toContain('critic');

    expect(await harness.dispatch('org.restoreAgent', { removedId: removed.removedId })).toMatchObject({
      ok: true,
      value: { name: 'critic' },
    });
    expect(await harness.dispatch('org.restoreAgent', { removedId: removed.removedId })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await harness.dispatch('org.restoreAgent', { removedId: '1-../../etc' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('refuses to remove an agent while a run is going', async () => {
    const { harness } = await openDemo();
    valueOf(await harness.dispatch('run.start', { intervalMs: 600_000 }));
    expect(await harness.dispatch('org.removeAgent', { agent: 'writer' })).toEqual({
      ok: false,
      error: { code: 'busy', message: 'Pause or stop the run before removing an agent.' },
    });
    valueOf(await harness.dispatch('run.stop', {}));
  });

  it("the first run copies the demo org once, keeps the user's progress, and copies afresh on request", async () => {
    const harness = await harnesses.create();
    const first = valueOf<{ path: string; created: boolean; agentCount: number }>(
      await harness.dispatch('firstRun.openDemo', {}),
    );
    expect(first).toMatchObject({
      path: join(harness.userOrgsFolder, 'LeMMing Demo'),
      created: true,
      agentCount: 4,
    });
    valueOf(await harness.dispatch('run.step', {}));
    const again = valueOf<{ path: string; created: boolean }>(
      await harness.dispatch('firstRun.openDemo', {}),
    );
    expect(again).toMatchObject({ path: first.path, created: false });
    expect(valueOf<{ nextTick: number }>(await harness.dispatch('org.summary', {})).nextTick).toBe(2);
    const fresh = valueOf<{ path: string; created: boolean }>(
      await harness.dispatch('firstRun.openDemo', { fresh: true }),
    );
    expect(fresh).toMatchObject({ path: join(harness.userOrgsFolder, 'LeMMing Demo 2'), created: true });
    expect(valueOf<{ nextTick: number }>(await harness.dispatch('org.summary', {})).nextTick).toBe(1);
  });
});
