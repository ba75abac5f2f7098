import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunState } from '../api/run-schemas';
import type { OrgEngine } from './org-engine';
import { RunController, type RunControllerOptions } from './run-controller';
import { DEMO_ORG, resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';
import { until } from '../../test/test-support/until';

const world = engineWorld();
const { orgs } = world;

/** The demo org's engine under a controller; `hooks` may command the controller from its callbacks. */
async function demo(
  hooks: (controller: RunController) => Omit<RunControllerOptions, 'onState'> = () => ({}),
) {
  const org = orgs.copy(DEMO_ORG);
  const engine = await world.open(org);
  const states: RunState[] = [];
  const controller: RunController = new RunController(engine, {
    onTickStart: (tick) => hooks(controller).onTickStart?.(tick),
    onTick: (report) => hooks(controller).onTick?.(report),
    onState: (state) => states.push(state),
  });
  return { org, engine, controller, states };
}

function nextTickOnDisk(org: string): number {
  return JSON.parse(readFileSync(join(org, 'lemming/config/tick.json'), 'utf8')).current_tick;
}

/** Every tick the timeline saw start, and every (tick, agent) turn it saw complete, with counts. */
function recordedTurns(engine: OrgEngine) {
  const rows = engine.timeline.db
    .prepare(
      "SELECT kind, tick, agent FROM events WHERE kind IN ('tick_started', 'turn_completed') ORDER BY seq",
    )
    .all() as { kind: string; tick: number; agent: string | null }[];
  const ticks = rows.filter((row) => row.kind === 'tick_started').map((row) => row.tick);
  const turns = new Map<string, number>();
  for (const row of rows.filter((row) => row.kind === 'turn_completed')) {
    const key = `${row.tick}:${row.agent}`;
    turns.set(key, (turns.get(key) ?? 0) + 1);
  }
  const committed = engine.timeline.db.prepare('SELECT count(*) FROM turns').pluck().get() as number;
  return { ticks, turns, committed };
}

function expectEachTurnOnce(engine: OrgEngine, ticks: number[]) {
  const recorded = recordedTurns(engine);
  expect(recorded.ticks).toEqual(ticks);
  expect([...recorded.turns.values()].every((count) => count === 1)).toBe(true);
  expect(recorded.turns.size).toBe(recorded.committed);
}

describe('RunController with the demo org', () => {
  it('runs the asked number of ticks, then ends by itself', async () => {
    const { org, engine, controller, states } = await demo();
    expect(controller.start({ tickLimit: 3 })).toMatchObject({ ok: true, value: { phase: 'running' } });
    await controller.whenIdle();

    expect(controller.state()).toMatchObject({
      phase: 'idle',
      ticksRun: 3,
      nextTick: 4,
      tickInProgress: null,
      ended: { reason: 'tick_limit', message: 'Ran 3 ticks, as asked.', atTick: 3 },
    });
    expect(nextTickOnDisk(org)).toBe(4);
    expect(
      states.filter((state) => state.tickInProgress !== null).map((state) => state.tickInProgress),
    ).toEqual([1, 2, 3]);
    expectEachTurnOnce(engine, [1, 2, 3]);
  });

  it('pausing mid-tick lets that tick finish, and no other starts until resumed', async () => {
    const made = await demo((controller) => ({
      onTickStart: (tick) => {
        if (tick === 2) expect(controller.pause()).toMatchObject({ ok: true, value: { phase: 'pausing' } });
      },
    }));
    const controller = made.controller;
    controller.start();
    await until(() => controller.state().phase === 'paused', 'the pause', { everyMs: 2 });

    expect(controller.state()).toMatchObject({
      phase: 'paused',
      nextTick: 3,
      ticksRun: 2,
      tickInProgress: null,
    });
    expect(nextTickOnDisk(made.org)).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(nextTickOnDisk(made.org)).toBe(3);

    expect(controller.resume()).toMatchObject({ ok: true, value: { phase: 'running' } });
    await until(() => controller.state().ticksRun >= 4, 'four ticks', { everyMs: 2 });
    controller.stop();
    await controller.whenIdle();
    expect(controller.state().ended).toMatchObject({ reason: 'stopped' });
    const ran = controller.state().ticksRun;
    expect(nextTickOnDisk(made.org)).toBe(ran + 1);
    expectEachTurnOnce(
      made.engine,
      Array.from({ length: ran }, (_, index) => index + 1),
    );
  });

  it('steps one tick at a time when idle or paused, and refuses to step while running', async () => {
    const made = await demo();
    const controller = made.controller;

    const first = await controller.step();
    expect(first).toMatchObject({
      ok: true,
      value: { report: { tick: 1 }, state: { phase: 'idle', nextTick: 2 } },
    });
    expect(first.ok && first.value.report.turns.map((turn) => turn.agent)).toEqual([
      'manager',
      'researcher',
      'writer',
    ]);

    controller.start();
    const whileRunning = await controller.step();
    expect(whileRunning).toEqual({
      ok: false,
      error: { reason: 'Cannot step while the run is running; pause it first.' },
    });
    controller.pause();
    await until(() => controller.state().phase === 'paused', 'the pause', { everyMs: 2 });
    const before = controller.state().nextTick!;

    const stepped = await controller.step();
    expect(stepped).toMatchObject({
      ok: true,
      value: { report: { tick: before }, state: { phase: 'paused', nextTick: before + 1 } },
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(controller.state()).toMatchObject({ phase: 'paused', nextTick: before + 1 });

    controller.stop();
    await controller.whenIdle();
    expectEachTurnOnce(
      made.engine,
      Array.from({ length: before }, (_, index) => index + 1),
    );
  });

  it('stopping mid-tick finishes that tick and commits each of its turns once', async () => {
    const made = await demo((controller) => ({
      onTickStart: (tick) => {
        if (tick === 2)
          expect(controller.stop()).toMatchObject({
            ok: true,
            value: { phase: 'stopping', tickInProgress: 2 },
          });
      },
    }));
    const controller = made.controller;
    controller.start();
    await controller.whenIdle();

    expect(controller.state()).toMatchObject({
      phase: 'idle',
      nextTick: 3,
      ended: { reason: 'stopped', atTick: 2 },
    });
    expect(nextTickOnDisk(made.org)).toBe(3);
    expectEachTurnOnce(made.engine, [1, 2]);
  });

  it('pausing or stopping during the wait between ticks takes effect at once', async () => {
    const made = await demo((controller) => ({ onTick: () => controller.pause() }));
    const controller = made.controller;
    controller.start({ intervalMs: 600_000 });
    await until(() => controller.state().phase === 'paused', 'the pause', { everyMs: 2 });
    expect(controller.stop()).toMatchObject({
      ok: true,
      value: { phase: 'idle', ended: { reason: 'stopped' } },
    });
    await controller.whenIdle();
    expectEachTurnOnce(made.engine, [1]);
  });

  it('ends after max_turns, without running the tick past it', async () => {
    const { org, engine, controller } = await demo();
    controller.start({ lastTick: 2 });
    await controller.whenIdle();
    expect(controller.state()).toMatchObject({
      ticksRun: 2,
      ended: {
        reason: 'max_turns',
        message: 'Tick 2 is the last one (max_turns in lemming/config/org_config.json).',
      },
    });
    expect(nextTickOnDisk(org)).toBe(3);

    controller.start({ lastTick: 2 });
    await controller.whenIdle();
    expect(controller.state()).toMatchObject({ ticksRun: 0, ended: { reason: 'max_turns' } });
    expectEachTurnOnce(engine, [1, 2]);
  });

  it('refuses a second start and commands that make no sense in the current phase', async () => {
    const { controller } = await demo();
    expect(controller.pause()).toEqual({
      ok: false,
      error: { reason: 'Nothing to pause: the run is idle.' },
    });
    expect(controller.resume()).toEqual({
      ok: false,
      error: { reason: 'Nothing to resume: the run is idle.' },
    });
    expect(controller.stop()).toMatchObject({ ok: true, value: { phase: 'idle' } });
    controller.start({ tickLimit: 1 });
    expect(controller.start()).toEqual({
      ok: false,
      error: { reason: 'A run is already running; stop it before starting another.' },
    });
    await controller.whenIdle();
  });

  it('a tick that cannot run ends the run with the reason, naming the file', async () => {
    const { org, controller } = await demo();
    writeFileSync(join(org, 'lemming/config/tick.json'), '{"current_tick": "soon"}');
    controller.start();
    await controller.whenIdle();
    expect(controller.state()).toMatchObject({ phase: 'idle', ticksRun: 0, ended: { reason: 'error' } });
    expect(controller.state().ended?.message).toContain('lemming/config/tick.json');
    expect(await controller.step()).toMatchObject({ ok: false });
  });

  it('survives a storm of commands: one tick at a time, each turn committed once, ticks in order', async () => {
    const { org, engine, controller } = await demo();
    const random = seeded(7);
    const commands = [
      () => controller.start({ tickLimit: 4 }),
      () => controller.pause(),
      () => controller.resume(),
      () => controller.stop(),
      () => controller.step(),
    ];
    const pending: Promise<unknown>[] = [];
    for (let index = 0; index < 60; index += 1) {
      pending.push(Promise.resolve(commands[Math.floor(random() * commands.length)]!()));
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 8)));
    }
    controller.stop();
    await Promise.all(pending);
    await controller.whenIdle();

    const ticks = recordedTurns(engine).ticks;
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks).toEqual(Array.from({ length: ticks.length }, (_, index) => index + 1));
    expect(nextTickOnDisk(org)).toBe(ticks.length + 1);
    expectEachTurnOnce(engine, ticks);
    expect(controller.state().ended?.reason).not.toBe('error');
  });

  it('dispose stops a run and resolves once nothing runs', async () => {
    const { controller } = await demo();
    controller.start();
    await until(() => controller.state().ticksRun >= 1, 'a tick', { everyMs: 2 });
    await controller.dispose();
    expect(controller.state().phase).toBe('idle');
  });
});

function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

describe('RunController and the schedule', () => {
  function clockOrg() {
    return orgs.build({
      'lemming/config/models.json': {
        scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
      },
      'script.json': { default: [{ respond: { notes: 'worked' } }] },
      'agents/clerk/resume.json': resume('clerk', {
        schedule: { run_every_n_ticks: 1, phase_offset: 0, clock: '0 9 * * *' },
      }),
    });
  }

  it('wakes for an agent due by the clock before the interval is over', async () => {
    const engine = await world.open(clockOrg(), { clock: () => new Date(2026, 10, 28, 8, 59, 59, 950) });
    const controller = new RunController(engine);
    const started = performance.now();
    controller.start({ tickLimit: 2, intervalMs: 3_600_000 });
    await controller.whenIdle();
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(controller.state().ticksRun).toBe(2);
  });

  it("records a run's end by the person or its limit, and not the app closing, so only the latter's gap is missed ticks", async () => {
    const engine = await world.open(clockOrg());
    const ended = () =>
      engine.timeline
        .page({ kinds: ['run_ended'], direction: 'asc', limit: 10 })
        .rows.map((row) => (JSON.parse(row.json) as { reason: string }).reason);
    const limited = new RunController(engine);
    limited.start({ tickLimit: 1 });
    await limited.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended()).toEqual(['tick_limit']);

    const closing = new RunController(engine);
    closing.start({ intervalMs: 60_000 });
    for (let waited = 0; closing.state().ticksRun === 0 && waited < 10_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await closing.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(ended()).toEqual(['tick_limit']);
  });
});
