import { existsSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalDesk, setApprovalMode } from '../app/approvals';
import { removeAgent, restoreAgent } from '../app/org-directory';
import { orgContextOf } from '../app/test-support/org-context-of';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';
import { until } from '../../test/test-support/until';

const world = engineWorld();

function events(engine: OrgEngine, kinds: string[]) {
  return engine.timeline
    .page({ kinds, direction: 'asc', cursor: null, limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

const SHELL = { tool: 'shell', args: { command: 'echo ran >> made.txt' } };

/** z runs the shell at the start of every turn; hr re-creates z at tick `recreateAt`. */
function org(approvals: Record<string, unknown> = {}, recreateAt = 2): string {
  return world.orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'lemming/config/approvals.json': { timeout_seconds: 0.3, ...approvals },
    'script.json': {
      agents: {
        z: [{ when: { round: 1 }, respond: { tool_calls: [SHELL] } }, { respond: { notes: 'done' } }],
        hr: [
          {
            when: { tick: recreateAt, round: 1 },
            respond: { tool_calls: [{ tool: 'create_agent', args: { name: 'z', tools: ['shell'] } }] },
          },
          { respond: { notes: 'nothing to do' } },
        ],
      },
    },
    'agents/z/resume.json': resume('z', { permissions: { read_outboxes: [], tools: ['shell'] } }),
    'agents/hr/resume.json': resume('hr', {
      permissions: { read_outboxes: [], tools: ['create_agent', 'shell'] },
    }),
  });
}

/** Runs one tick, approving always every request it makes. */
async function tickApprovingAlways(engine: OrgEngine, desk: ApprovalDesk): Promise<void> {
  const tick = engine.runTick();
  await until(() => desk.pending().length === 1);
  await desk.answer({ id: desk.pending()[0]!.id, answer: 'approve_always' });
  await tick;
}

describe("a person's approval settings belong to the agent they were made for", () => {
  it('"always" for an agent\'s shell does not pass to a new agent another agent creates under its name', async () => {
    const path = org();
    const trust = await trustAsIs(path);
    const desk = new ApprovalDesk(() => {});
    const first = await world.open(path, { approvals: desk, trust });
    await tickApprovingAlways(first, desk);
    expect(readFileSync(join(path, 'agents/z/workspace/made.txt'), 'utf8')).toBe('ran\n');
    world.close(first);

    // z is gone (its folder deleted by hand, or by LeMMing, between runs), and hr makes a new z.
    rmSync(join(path, 'agents/z'), { recursive: true });
    await trustAsIs(path, trust);
    const engine = await world.open(path, { approvals: desk, trust });
    await engine.runTick();
    expect(existsSync(join(path, 'agents/z/resume.json'))).toBe(true);
    // The person trusts the org again with its new agent, as the trust screen asks them to.
    await trustAsIs(path, trust);
    await engine.runTick();
    expect(existsSync(join(path, 'agents/z/workspace/made.txt'))).toBe(false);
    const asked = events(engine, ['approval_requested']).filter((event) => event.agent === 'z');
    expect(asked).toHaveLength(2);
    expect(events(engine, ['approval_answered']).at(-1)).toMatchObject({ agent: 'z', source: 'timeout' });
  });

  it('"always" stays with the agent it was given to, run after run', async () => {
    const path = org({}, 99);
    const trust = await trustAsIs(path);
    const desk = new ApprovalDesk(() => {});
    const first = await world.open(path, { approvals: desk, trust });
    await tickApprovingAlways(first, desk);
    world.close(first);
    const again = await world.open(path, { approvals: desk, trust });
    await again.runTick();
    expect(readFileSync(join(path, 'agents/z/workspace/made.txt'), 'utf8')).toBe('ran\nran\n');
    expect(events(again, ['approval_requested'])).toHaveLength(1);
  });

  it('"always" written in the org\'s approvals.json by whoever made the folder asks until the person says so', async () => {
    const path = org({ agents: { z: { shell: 'always' } } }, 99);
    const desk = new ApprovalDesk(() => {});
    const engine = await world.open(path, { approvals: desk });
    await engine.runTick();
    expect(existsSync(join(path, 'agents/z/workspace/made.txt'))).toBe(false);
    const [requested] = events(engine, ['approval_requested']);
    expect(requested).toMatchObject({ agent: 'z', tool: 'shell' });
    expect(requested!.reason).toBe(
      "It runs a command on this computer with your rights. The org's approval settings say it may always run, but only you can let a tool run without asking.",
    );
  });

  it("an agent's settings in approvals.json are bound to it once; a new agent of its name does not take them over", async () => {
    const path = org({ agents: { z: { shell: 'never' } } }, 2);
    const trust = await trustAsIs(path);
    const desk = new ApprovalDesk(() => {});
    const first = await world.open(path, { approvals: desk, trust });
    await first.runTick();
    expect(events(first, ['tool_result']).find((event) => event.agent === 'z')).toMatchObject({
      result: { success: false, error: expect.stringContaining('shell is set to "never allowed" for z') },
    });
    const oldId = readFileSync(join(path, 'agents/z/.agent-id'), 'utf8').trim();
    expect(approvalsFile(path)).toMatchObject({ agents: { z: { shell: 'never' } }, agent_ids: { z: oldId } });
    world.close(first);

    rmSync(join(path, 'agents/z'), { recursive: true });
    await trustAsIs(path, trust);
    const engine = await world.open(path, { approvals: desk, trust });
    await engine.runTick();
    await trustAsIs(path, trust);
    expect(readFileSync(join(path, 'agents/z/.agent-id'), 'utf8').trim()).not.toBe(oldId);
    expect(approvalsFile(path).agents?.z).toBeUndefined();
    await engine.runTick();
    expect(events(engine, ['approval_requested']).filter((event) => event.agent === 'z')).toHaveLength(1);
  });

  it("removing an agent in the app removes its settings and the person's answers; restored, it asks again", async () => {
    const path = org({}, 99);
    const trust = await trustAsIs(path);
    const desk = new ApprovalDesk(() => {});
    const engine = await world.open(path, { approvals: desk, trust });
    await tickApprovingAlways(engine, desk);
    const context = orgContextOf(engine, trust);
    expect(await setApprovalMode(context, { agent: 'z', tool: 'memory_write', mode: 'never' })).toMatchObject(
      {
        ok: true,
      },
    );
    const id = readFileSync(join(path, 'agents/z/.agent-id'), 'utf8').trim();
    expect(trust.record(realpathSync(path)).agents).toEqual({ [id]: { name: 'z', always: ['shell'] } });

    const removed = await removeAgent(context, 'z');
    expect(removed.ok).toBe(true);
    expect(approvalsFile(path)).toEqual({ timeout_seconds: 0.3, agents: {}, agent_ids: {} });
    expect(trust.record(realpathSync(path)).agents).toEqual({});
    if (!removed.ok) return;
    expect((await restoreAgent(context, removed.value.removedId)).ok).toBe(true);
    await trustAsIs(path, trust);
    await engine.runTick();
    expect(readFileSync(join(path, 'agents/z/workspace/made.txt'), 'utf8')).toBe('ran\n');
    expect(events(engine, ['approval_requested']).filter((event) => event.agent === 'z')).toHaveLength(2);
  });
});

function approvalsFile(path: string): Record<string, any> {
  return JSON.parse(readFileSync(join(path, 'lemming/config/approvals.json'), 'utf8'));
}
