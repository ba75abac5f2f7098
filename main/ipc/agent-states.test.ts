import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentState } from '../../engine/api/agent-state-schemas';
import { canMakeImmutable, chattr } from '../../test/harness/immutable-folder';
import { addScriptedAgents } from '../../test/harness/scripted-demo-org';
import { DEMO_ORG, ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

async function stateOf(harness: IpcHarness, agent: string): Promise<AgentState> {
  const graph = valueOf<{ nodes: { name: string; state: AgentState }[] }>(
    await harness.dispatch('org.graph', {}),
  );
  const node = graph.nodes.find((candidate) => candidate.name === agent);
  if (!node) throw new Error(`${agent} is not in the graph`);
  return node.state;
}

/** Whether `agents.changed` named `agent` since `from` (an index into the harness's events). */
const pushedFor = (harness: IpcHarness, agent: string, from: number) =>
  harness.events
    .slice(from)
    .some(
      (event) =>
        event.name === 'agents.changed' && (event.payload as { names: string[] }).names.includes(agent),
    );

describe("an agent's state, from the engine, changes the moment its cause does", () => {
  it('a call waiting for the person is "needs you" (not running) until it is answered, each change pushed', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    addScriptedAgents(org, 'asks', {
      keeper: {
        title: 'Keeper',
        description: 'keeps',
        instructions: 'You keep.',
        tools: ['shell'],
        steps: [
          { when: { round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command: 'echo hi' } }] } },
          { respond: { notes: 'done' } },
        ],
      },
    });
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    const before = harness.events.length;
    const step = harness.dispatch('run.step', {});
    await expect
      .poll(async () => (await stateOf(harness, 'keeper')).kind, { timeout: 10_000 })
      .toBe('needs_you');
    const [request] = valueOf<{ requests: { id: string; asked_at: string }[] }>(
      await harness.dispatch('approvals.pending', {}),
    ).requests;
    expect(await stateOf(harness, 'keeper')).toEqual({
      kind: 'needs_you',
      words: 'Its turn waits for you to allow or deny shell.',
      waitingFor: 'approval',
      requestId: request?.id,
      tool: 'shell',
      since: request?.asked_at,
    });
    expect(pushedFor(harness, 'keeper', before)).toBe(true);

    const asked = harness.events.length;
    valueOf(await harness.dispatch('approvals.answer', { id: request?.id ?? '', answer: 'deny' }));
    expect(pushedFor(harness, 'keeper', asked)).toBe(true);
    valueOf(await step);
    expect((await stateOf(harness, 'keeper')).kind).toBe('ready');
  });

  it('a turn failed for a model that was not set up: "will not run" while it is not, ready once it is, the failure kept as history', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    const resumeFile = join(org, 'agents', 'writer', 'resume.json');
    const resume = JSON.parse(readFileSync(resumeFile, 'utf8'));
    writeFileSync(resumeFile, JSON.stringify({ ...resume, model: { ...resume.model, key: 'not-there' } }));
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    valueOf(await harness.dispatch('run.step', {}));
    expect(await stateOf(harness, 'writer')).toMatchObject({
      kind: 'will_not_run',
      reasons: [{ fixIn: 'settings', reason: expect.stringContaining('not-there') }],
    });

    const before = harness.events.length;
    valueOf(
      await harness.dispatch('agent.update', {
        agent: 'writer',
        patch: { model: { key: resume.model.key } },
      }),
    );
    expect(pushedFor(harness, 'writer', before)).toBe(true);
    const fixed = await stateOf(harness, 'writer');
    expect(fixed).toMatchObject({ kind: 'ready', lastTurnFailed: { tick: 1 } });
    const page = valueOf<{ state: AgentState }>(await harness.dispatch('agent.get', { agent: 'writer' }));
    expect(page.state).toEqual(fixed);
  });

  it('pausing the run shows every agent not taking a turn as paused, and continuing shows them ready', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    valueOf(await harness.dispatch('run.start', { intervalMs: 60_000 }));
    await expect
      .poll(async () => (await harness.dispatch('run.state', {})) as unknown)
      .toMatchObject({
        value: { phase: 'running', tickInProgress: null },
      });
    const before = harness.events.length;
    valueOf(await harness.dispatch('run.pause', {}));
    await expect.poll(async () => (await stateOf(harness, 'manager')).kind).toBe('paused');
    expect(harness.events.slice(before).some((event) => event.name === 'agents.changed')).toBe(true);
    valueOf(await harness.dispatch('run.stop', {}));
    await expect.poll(async () => (await stateOf(harness, 'manager')).kind).toBe('ready');
  });
});

describe.skipIf(!canMakeImmutable())('a failure the engine can see fixed (needs `chattr +i`)', () => {
  it('a folder its files could not be written to: failing while it cannot be, ready once it can, without another turn', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    const outbox = join(org, 'agents', 'manager', 'outbox');
    mkdirSync(outbox, { recursive: true });
    chattr('+i', outbox);
    try {
      valueOf(await harness.dispatch('run.step', {}));
      expect(await stateOf(harness, 'manager')).toMatchObject({
        kind: 'failing',
        sinceTick: 1,
        words: expect.stringContaining('could not be saved in its folder agents/manager/outbox'),
      });
    } finally {
      chattr('-i', outbox);
    }
    expect(await stateOf(harness, 'manager')).toMatchObject({ kind: 'ready', lastTurnFailed: { tick: 1 } });
  });
});
