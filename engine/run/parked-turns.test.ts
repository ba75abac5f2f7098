import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalDesk } from '../app/approvals';
import { runLockHolder } from '../org/org-lock';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();
const OTHERS = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9'];

/**
 * `asker` runs the shell in round 1 of tick 1 (it asks first), then writes notes; nine others write
 * notes every tick. Approvals wait `timeoutSeconds`.
 */
function parkingOrg(
  timeoutSeconds = 3600,
  command = 'echo ran-after-approval >> made.txt; echo ran-after-approval',
): string {
  return world.orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'lemming/config/approvals.json': { timeout_seconds: timeoutSeconds },
    'script.json': {
      agents: {
        asker: [
          { when: { tick: 1, round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command } }] } },
          { when: { round: 2 }, respond: { notes: 'went on after the answer' } },
          { respond: { notes: 'a later turn' } },
        ],
      },
      default: [{ respond: { notes: 'my turn' } }],
    },
    'agents/asker/resume.json': resume('asker', { permissions: { read_outboxes: [], tools: ['shell'] } }),
    ...Object.fromEntries(
      OTHERS.map((name) => [
        `agents/${name}/resume.json`,
        resume(name, { permissions: { read_outboxes: [], tools: [] } }),
      ]),
    ),
  });
}

async function openWithDesk(
  path: string,
): Promise<{ engine: OrgEngine; desk: ApprovalDesk; changes: string[] }> {
  const changes: string[] = [];
  const desk = new ApprovalDesk((agent) => changes.push(agent));
  const engine = await world.open(path, { approvals: desk, onParkedChange: (agent) => changes.push(agent) });
  desk.attach(engine.parked);
  return { engine, desk, changes };
}

function events(engine: OrgEngine, kinds: string[]) {
  return engine.timeline
    .page({ kinds, direction: 'asc', cursor: null, limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

describe('a turn that waits for the person is parked, and the org goes on', () => {
  it('one agent waits 10 ticks while nine run every tick; answering resumes its turn where it stopped', async () => {
    const path = parkingOrg();
    const { engine, desk, changes } = await openWithDesk(path);

    for (let tick = 1; tick <= 10; tick += 1) {
      const report = await engine.runTick();
      expect(report.turns.filter((turn) => OTHERS.includes(turn.agent))).toEqual(
        OTHERS.map((agent) => ({ agent, status: 'completed' })),
      );
      expect(report.turns.find((turn) => turn.agent === 'asker')).toEqual(
        tick === 1
          ? { agent: 'asker', status: 'parked' }
          : { agent: 'asker', status: 'skipped', reason: 'waiting_for_person' },
      );
    }
    expect(changes).toContain('asker');
    const [request] = desk.pending();
    expect(desk.pending()).toHaveLength(1);
    expect(request).toMatchObject({ agent: 'asker', tool: 'shell', tick: 1 });
    expect(existsSync(join(path, 'agents/asker/workspace/made.txt'))).toBe(false);
    const skips = events(engine, ['skip']).filter((skip) => skip.agent === 'asker');
    expect(skips.map((skip) => skip.tick)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(skips[0]).toMatchObject({
      reason: 'waiting_for_person',
      message: 'asker did not run: its turn of tick 1 waits for you to allow or deny Run a shell command.',
    });
    expect(events(engine, ['turn_parked'])).toEqual([
      expect.objectContaining({ agent: 'asker', tick: 1, turn: '1:asker', request_id: request!.id }),
    ]);
    // Nothing of the parked turn is committed yet: no turn row, no model call on the timeline.
    expect(events(engine, ['model_call']).filter((call) => call.agent === 'asker')).toEqual([]);

    expect(await desk.answer({ id: request!.id, answer: 'approve_once' })).toEqual({ ok: true, value: true });
    expect(desk.pending()).toEqual([]);
    const eleventh = await engine.runTick();

    expect(eleventh.resumed).toEqual([{ agent: 'asker', tick: 1, status: 'completed' }]);
    expect(eleventh.turns.find((turn) => turn.agent === 'asker')).toEqual({
      agent: 'asker',
      status: 'completed',
    });
    expect(readFileSync(join(path, 'agents/asker/workspace/made.txt'), 'utf8')).toBe('ran-after-approval\n');
    const parkedTurn = engine.timeline
      .page({ agents: ['asker'], tickFrom: 1, tickTo: 1, direction: 'asc', cursor: null, limit: 100 })
      .rows.map((row) => JSON.parse(row.json) as Record<string, any>)
      .filter((event) => event.turn === '1:asker');
    // The parked record first, then the intent of the approved call (written before it runs, as every
    // intent is), then the whole turn in one commit.
    expect(parkedTurn.map((event) => event.kind)).toEqual([
      'turn_parked',
      'tool_intent',
      'turn_started',
      'model_call',
      'tool_call',
      'approval_requested',
      'turn_resumed',
      'approval_answered',
      'tool_result',
      'model_call',
      'credit',
      'notes',
      'turn_completed',
    ]);
    // No model call was made twice: round 1 before parking, round 2 after, and round 2 saw the result.
    const calls = parkedTurn.filter((event) => event.kind === 'model_call');
    expect(calls.map((call) => call.round)).toEqual([1, 2]);
    expect(JSON.stringify(calls[1]!.prompt)).toContain('ran-after-approval');
    expect(parkedTurn.at(-1)).toMatchObject({ kind: 'turn_completed', status: 'completed', tick: 1 });
    expect(readFileSync(join(path, 'agents/asker/logs/activity.log'), 'utf8')).toContain(
      '[Tick 1] went on after the answer',
    );
  });

  it('a request no one answers in time is given up: the turn goes on with a denial its model reads', async () => {
    const path = parkingOrg(0.05);
    const { engine, desk } = await openWithDesk(path);
    expect((await engine.runTick()).turns.find((turn) => turn.agent === 'asker')?.status).toBe('parked');
    await new Promise((resolve) => setTimeout(resolve, 80));

    const second = await engine.runTick();

    expect(second.resumed).toEqual([{ agent: 'asker', tick: 1, status: 'completed' }]);
    expect(desk.pending()).toEqual([]);
    expect(existsSync(join(path, 'agents/asker/workspace/made.txt'))).toBe(false);
    const [answered] = events(engine, ['approval_answered']);
    expect(answered).toMatchObject({ agent: 'asker', answer: 'deny', source: 'timeout', turn: '1:asker' });
    const round2 = events(engine, ['model_call']).find((call) => call.agent === 'asker' && call.round === 2);
    expect(JSON.stringify(round2?.prompt)).toContain(
      "Tool 'shell' was not run: it needed the user's approval. No one answered by",
    );
  });

  it('a denial goes to the model with the reason, and an answer given twice counts once', async () => {
    const path = parkingOrg();
    const { engine, desk } = await openWithDesk(path);
    await engine.runTick();
    const [request] = desk.pending();
    expect(await desk.answer({ id: request!.id, answer: 'deny', reason: 'not on a Saturday' })).toEqual({
      ok: true,
      value: true,
    });
    expect(await desk.answer({ id: request!.id, answer: 'approve_once' })).toEqual({
      ok: true,
      value: false,
    });

    await engine.runTick();

    expect(existsSync(join(path, 'agents/asker/workspace/made.txt'))).toBe(false);
    const round2 = events(engine, ['model_call']).find((call) => call.agent === 'asker' && call.round === 2);
    expect(JSON.stringify(round2?.prompt)).toContain('the user denied it. Their reason: not on a Saturday');
  });
});

describe('after a restart', () => {
  it('the app asks a waiting request again: its time counts afresh from the first tick of the new run', async () => {
    const path = parkingOrg(60);
    const first = await openWithDesk(path);
    await first.engine.runTick();
    const [asked] = first.desk.pending();
    world.close(first.engine);

    const desk = new ApprovalDesk(() => undefined);
    const engine = await world.open(path, { approvals: desk, askAgainAfterRestart: true });
    desk.attach(engine.parked);
    expect(desk.pending().map((request) => request.id)).toEqual([asked!.id]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await engine.runTick();

    const [again] = desk.pending();
    expect(again!.id).toBe(asked!.id);
    expect(Date.parse(again!.expires_at)).toBeGreaterThan(Date.parse(asked!.expires_at));
    expect(again!.asked_at).toBe(asked!.asked_at);
  });
});

describe('an approval counts only if the person gave it', () => {
  it("an approval written into the org's timeline by someone else is not used: the call is denied", async () => {
    const path = parkingOrg();
    const { engine, desk } = await openWithDesk(path);
    await engine.runTick();
    // Whoever wrote the org folder can write its timeline, but not the person's own record.
    engine.timeline.db
      .prepare('UPDATE parked_turns SET answer = ?')
      .run(JSON.stringify({ answer: 'approve_once', source: 'person' }));
    expect(desk.pending()).toEqual([]);

    await engine.runTick();

    expect(existsSync(join(path, 'agents/asker/workspace/made.txt'))).toBe(false);
    const round2 = events(engine, ['model_call']).find((call) => call.agent === 'asker' && call.round === 2);
    expect(JSON.stringify(round2?.prompt)).toContain('was not given by the person on this computer');
  });
});

describe('in the app, an answer resumes the parked turn at once', () => {
  it('between ticks: the turn commits under its own tick before any next tick runs', async () => {
    const path = parkingOrg();
    const desk = new ApprovalDesk(() => undefined);
    const engine = await world.open(path, { approvals: desk, resumeWhenAnswered: true });
    desk.attach(engine.parked);
    await engine.runTick();
    const [request] = desk.pending();

    await desk.answer({ id: request!.id, answer: 'approve_once' });
    await engine.resumeAnswered();

    expect(readFileSync(join(path, 'agents/asker/workspace/made.txt'), 'utf8')).toBe('ran-after-approval\n');
    expect(events(engine, ['turn_completed']).filter((turn) => turn.agent === 'asker')).toEqual([
      expect.objectContaining({ tick: 1, turn: '1:asker', status: 'completed' }),
    ]);
    expect(await engine.currentTick()).toBe(2);
    expect((await engine.runTick()).resumed).toBeUndefined();
  });

  it('a step that ends while the answered turn waits to resume does not let go of the run under it', async () => {
    const path = parkingOrg();
    const desk = new ApprovalDesk(() => undefined);
    const engine = await world.open(path, { approvals: desk, resumeWhenAnswered: true });
    desk.attach(engine.parked);
    await engine.runTick();
    const [request] = desk.pending();

    // The answer comes as the step's tick ends: the resume is asked for before the step lets go of the run.
    await desk.answer({ id: request!.id, answer: 'approve_once' });
    engine.releaseRun();
    // Letting go would stop the MCP servers the resumed turn uses (a server's in-memory state, such as a
    // tool it renamed, would be lost before the next tick) and let another program run the org under it.
    expect(runLockHolder(path)).toMatchObject({ pid: process.pid });

    await engine.resumeAnswered();
    expect(readFileSync(join(path, 'agents/asker/workspace/made.txt'), 'utf8')).toBe('ran-after-approval\n');
    expect(runLockHolder(path)).toMatchObject({ pid: process.pid });
    engine.releaseRun();
    expect(runLockHolder(path)).toBeNull();
  });
});
