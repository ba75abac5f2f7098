import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lemmingCompatibilityWarnings } from '../org/resume-lemming-compat';
import { firingOrder } from '../org/schedule';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';
import { lemmingCheckout } from '../../test/test-support/lemming-checkout';

const world = engineWorld();
const MINUTE = 60_000;

const zoneBefore = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

function clockOrg(extra: Record<string, unknown> = {}): string {
  return world.orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': { default: [{ respond: { notes: 'worked' } }] },
    'agents/clerk/resume.json': resume('clerk', {
      schedule: { run_every_n_ticks: 1, phase_offset: 0, clock: '0 9 * * 1-5' },
    }),
    'agents/ticker/resume.json': resume('ticker'),
    ...extra,
  });
}

function ranAt(engine: OrgEngine, agent: string): number[] {
  return engine.timeline
    .page({ kinds: ['turn_completed'], direction: 'asc', limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as { agent: string; tick: number })
    .filter((event) => event.agent === agent)
    .map((event) => event.tick);
}

function kinds(engine: OrgEngine, kind: string): Record<string, unknown>[] {
  return engine.timeline
    .page({ kinds: [kind], direction: 'asc', limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, unknown>);
}

describe('clock schedules in a run (fake clock)', () => {
  it('run an agent at the first tick at or after each due time, once however many were missed', async () => {
    const org = clockOrg();
    // Friday 27 November 2026, 08:58 in Berlin; a tick a minute.
    let now = new Date('2026-11-27T08:58:00').getTime();
    const engine = await world.open(org, { clock: () => new Date(now) });
    const pace = { intervalMs: MINUTE };
    for (let tick = 1; tick <= 4; tick += 1) {
      await engine.runTick(undefined, pace);
      now += MINUTE;
    }
    expect(ranAt(engine, 'clerk')).toEqual([3]);
    expect(ranAt(engine, 'ticker')).toEqual([1, 2, 3, 4]);
    expect(await engine.untilNextClockDue()).toBe(
      new Date('2026-11-30T09:00:00').getTime() - new Date('2026-11-27T09:02:00').getTime(),
    );

    // The person stops the run and starts it again on Monday at 10:30: the due time of 09:00 (and none
    // at the weekend) passed, so the clerk runs once; nothing is counted as missed.
    await engine.recordRunEnded('stopped', 'Stopped.');
    now = new Date('2026-11-30T10:30:00').getTime();
    await engine.runTick(undefined, pace);
    now += MINUTE;
    await engine.runTick(undefined, pace);
    expect(ranAt(engine, 'clerk')).toEqual([3, 5]);
    expect(kinds(engine, 'ticks_missed')).toEqual([]);
  });

  it('catches up once after missed ticks when the org says so, the agents that were due in them taking one turn', async () => {
    const org = clockOrg({
      'lemming/config/schedule.json': { catch_up: 'once' },
      'agents/weekly/resume.json': resume('weekly', { schedule: { run_every_n_ticks: 7, phase_offset: 0 } }),
    });
    let now = new Date('2026-11-28T12:00:00').getTime();
    const first = await world.open(org, { clock: () => new Date(now) });
    for (let tick = 1; tick <= 3; tick += 1) {
      await first.runTick(undefined, { intervalMs: MINUTE });
      now += MINUTE;
    }
    world.close(first);
    now += 9 * MINUTE;
    const reopened = await world.open(org, { clock: () => new Date(now) });
    // The first tick after the gap fails on a broken credits.json; the next one does not record the gap again.
    const creditsFile = join(org, 'lemming/config/credits.json');
    writeFileSync(creditsFile, '{ broken');
    await expect(reopened.runTick(undefined, { intervalMs: MINUTE })).rejects.toThrow();
    rmSync(creditsFile);
    const report = await reopened.runTick(undefined, { intervalMs: MINUTE });
    expect(kinds(reopened, 'ticks_missed')).toEqual([
      expect.objectContaining({
        from: 4,
        to: 12,
        catching_up: ['ticker', 'weekly'],
        message: 'Ticks 4–12 did not run: the app was closed. ticker, weekly take one turn now to catch up.',
      }),
    ]);
    expect(report.tick).toBe(13);
    expect(report.turns.map((turn) => turn.agent).sort()).toEqual(['ticker', 'weekly']);
    expect(ranAt(reopened, 'weekly')).toEqual([13]);
  });
});

describe("LeMMing's shape", () => {
  const clerk = resume('clerk', {
    switched_off: true,
    schedule: { run_every_n_ticks: 2, phase_offset: 1, clock: '0 9 * * 1-5' },
  });

  it('a resume with a clock schedule and the switch raises no LeMMing warning', () => {
    expect(lemmingCompatibilityWarnings(clerk, 'agents/clerk/resume.json', null)).toEqual([]);
  });

  const checkout = lemmingCheckout();
  // Runs only where a LeMMing checkout is (LEMMING_CHECKOUT or /tmp/c-lemming) with Python 3.
  it.skipIf(checkout === null)(
    "LeMMing's own loader and validation accept the org, and its scheduler runs the agent by its tick fields",
    () => {
      const org = clockOrg({ 'agents/clerk/resume.json': clerk });
      const script = [
        'import json, sys',
        'from pathlib import Path',
        'from lemming.config_validation import validate_resume_file',
        'from lemming.agents import load_agent',
        'from lemming.engine import get_firing_agents',
        'base = Path(sys.argv[1])',
        "errors = [str(e) for e in [validate_resume_file(base / 'agents' / n / 'resume.json') for n in ('clerk', 'ticker')] if not isinstance(e, dict)]",
        "agents = [load_agent(base, n) for n in ('clerk', 'ticker')]",
        'print(json.dumps({"errors": errors, "firing": [[a.name for a in get_firing_agents(agents, t)] for t in range(1, 7)]}))',
      ].join('\n');
      const run = spawnSync('python3', ['-c', script, org], {
        cwd: checkout!,
        env: { ...process.env, PYTHONPATH: checkout! },
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      const lemming = JSON.parse(run.stdout) as { errors: string[]; firing: string[][] };
      expect(lemming.errors).toEqual([]);
      const ours = [1, 2, 3, 4, 5, 6].map((tick) =>
        firingOrder(tick, [
          { name: 'clerk', schedule: { run_every_n_ticks: 2, phase_offset: 1 } },
          { name: 'ticker', schedule: { run_every_n_ticks: 1, phase_offset: 0 } },
        ]).map((agent) => agent.name),
      );
      expect(lemming.firing).toEqual(ours);
      expect(JSON.parse(readFileSync(join(org, 'agents/clerk/resume.json'), 'utf8'))).toEqual(clerk);
    },
  );
});
