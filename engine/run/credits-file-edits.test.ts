import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromMicros } from '../credits/credit-amount';
import type { OrgEngine } from './org-engine';
import { scriptedOrgFiles } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();
const { orgs } = world;

const CREDITS = 'lemming/config/credits.json';
type CreditsFile = Record<
  string,
  { model: string; cost_per_action: number; credits_left: number; max_credits?: number; soft_cap?: number }
>;

/** An org with `credits` in credits.json and agents that run on `schedules` ([every, offset]). */
function orgWithCredits(credits: CreditsFile, schedules: Record<string, [number, number]>): string {
  return orgs.build({
    ...scriptedOrgFiles(
      { default: [{ respond: { notes: 'ok' } }] },
      Object.fromEntries(
        Object.entries(schedules).map(([name, [every, offset]]) => [
          name,
          { schedule: { run_every_n_ticks: every, phase_offset: offset } },
        ]),
      ),
    ),
    [CREDITS]: credits,
  });
}

const readCredits = (org: string) => JSON.parse(readFileSync(join(org, CREDITS), 'utf8')) as CreditsFile;
const writeCredits = (org: string, credits: CreditsFile) =>
  writeFileSync(join(org, CREDITS), `${JSON.stringify(credits, null, 2)}\n`);

const open = (org: string) => world.open(org);

function externalAdjustments(engine: OrgEngine) {
  return (
    engine.timeline.db
      .prepare("SELECT json FROM events WHERE kind = 'credit' ORDER BY seq")
      .pluck()
      .all() as string[]
  )
    .map((json) => JSON.parse(json) as Record<string, unknown>)
    .filter((event) => event.entry === 'external_adjustment');
}

describe('credits.json is a two-way file', () => {
  it('a refill and a zero made by hand between runs are honoured on the next tick and recorded with the old and new value', async () => {
    const org = orgWithCredits(
      {
        alpha: { model: 'scripted', cost_per_action: 0.5, credits_left: 10 },
        beta: { model: 'scripted', cost_per_action: 0.5, credits_left: 10 },
      },
      { alpha: [1, 0], beta: [1, 0] },
    );
    let engine = await open(org);
    await engine.runTick();
    await engine.runTick();
    engine.close();
    expect(readCredits(org).alpha!.credits_left).toBe(9);

    const edited = readCredits(org);
    edited.alpha!.credits_left = 100;
    edited.beta!.credits_left = 0;
    writeCredits(org, edited);

    engine = await open(org);
    const report = await engine.runTick();
    expect(report.turns).toEqual([
      { agent: 'alpha', status: 'completed' },
      { agent: 'beta', status: 'skipped', reason: 'out_of_credits' },
    ]);
    expect(fromMicros(engine.ledger.balance('alpha')!)).toBe(99.5);
    expect(fromMicros(engine.ledger.balance('beta')!)).toBe(0);
    expect(readCredits(org)).toMatchObject({ alpha: { credits_left: 99.5 }, beta: { credits_left: 0 } });
    expect(externalAdjustments(engine)).toEqual([
      expect.objectContaining({
        agent: 'alpha',
        field: 'credits_left',
        old: 9,
        new: 100,
        amount: 91,
        reason: expect.stringContaining('from 9 to 100'),
      }),
      expect.objectContaining({ agent: 'beta', field: 'credits_left', old: 9, new: 0, amount: -9 }),
    ]);
    expect(engine.ledger.history('alpha', { limit: 5 }).map((entry) => entry.kind)).toContain(
      'external_adjustment',
    );
  });

  it('records a changed cost_per_action and charges it; an agent removed from the file is re-seeded as LeMMing does', async () => {
    const org = orgWithCredits(
      {
        alpha: { model: 'scripted', cost_per_action: 1, credits_left: 10 },
        beta: { model: 'scripted', cost_per_action: 1, credits_left: 10, max_credits: 40 },
      },
      { alpha: [1, 0], beta: [1, 0] },
    );
    let engine = await open(org);
    await engine.runTick();
    engine.close();
    const edited = readCredits(org);
    edited.alpha!.cost_per_action = 2;
    delete edited.beta;
    writeCredits(org, edited);

    engine = await open(org);
    await engine.runTick();
    expect(fromMicros(engine.ledger.balance('alpha')!)).toBe(7);
    // LeMMing seeds a missing entry from the resume's credits, else 1000.
    expect(fromMicros(engine.ledger.balance('beta')!)).toBe(1000 - 0.01);
    expect(externalAdjustments(engine)).toEqual([
      expect.objectContaining({ agent: 'alpha', field: 'cost_per_action', old: 1, new: 2, amount: 0 }),
      expect.objectContaining({
        agent: 'beta',
        field: 'credits_left',
        old: 9,
        new: null,
        reason: expect.stringContaining('removed from'),
      }),
    ]);
    expect(readCredits(org).beta).toMatchObject({ model: 'scripted', credits_left: 999.99 });
  });

  it('an edit made while a tick runs is taken in at its end, not overwritten', async () => {
    const org = orgWithCredits(
      { alpha: { model: 'scripted', cost_per_action: 1, credits_left: 10 } },
      { alpha: [1, 0] },
    );
    const engine = await open(org);
    await engine.runTick();
    const tick = engine.runTick();
    const edited = readCredits(org);
    edited.alpha!.credits_left = 50;
    writeCredits(org, edited);
    await tick;
    // 9 before the tick, +41 by hand, -1 for the turn.
    expect(fromMicros(engine.ledger.balance('alpha')!)).toBe(49);
    expect(readCredits(org).alpha!.credits_left).toBe(49);
  });

  it("running LeMMing and this engine alternately keeps every balance equal to LeMMing's own arithmetic", async () => {
    const schedules: Record<string, [number, number]> = { alpha: [1, 0], beta: [2, 1], gamma: [3, 0] };
    const initial: CreditsFile = {
      alpha: { model: 'scripted', cost_per_action: 0.1, credits_left: 1.0 },
      beta: { model: 'scripted', cost_per_action: 0.05, credits_left: 0.35 },
      gamma: { model: 'scripted', cost_per_action: 0.012, credits_left: 250.0 },
    };
    const org = orgWithCredits(initial, schedules);
    // LeMMing's run_agent: skip at credits_left <= 0, else credits_left = round(credits_left - cost, 4), whole file rewritten.
    const lemmingTick = (credits: CreditsFile, tick: number) => {
      for (const [name, [every, offset]] of Object.entries(schedules).sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (((tick % every) + every) % every !== ((offset % every) + every) % every) continue;
        const entry = credits[name]!;
        if (entry.credits_left <= 0) continue;
        entry.credits_left = Math.round((entry.credits_left - entry.cost_per_action) * 1e4) / 1e4;
      }
    };
    const expected = structuredClone(initial);
    let tick = 1;
    for (let round = 0; round < 3; round += 1) {
      const engine = await open(org);
      for (let step = 0; step < 5; step += 1, tick += 1) {
        await engine.runTick();
        lemmingTick(expected, tick);
      }
      world.close(engine);

      // LeMMing's turn: it reads credits.json and tick.json as we left them, runs 5 ticks, and rewrites both.
      const onDisk = readCredits(org);
      for (const name of Object.keys(schedules))
        expect(onDisk[name]!.credits_left, `${name} after our tick ${tick - 1}`).toBe(
          expected[name]!.credits_left,
        );
      for (let step = 0; step < 5; step += 1, tick += 1) {
        lemmingTick(onDisk, tick);
        lemmingTick(expected, tick);
      }
      writeCredits(org, onDisk);
      writeFileSync(join(org, 'lemming/config/tick.json'), JSON.stringify({ current_tick: tick }));
    }
    const engine = await open(org);
    await engine.runTick();
    lemmingTick(expected, tick);
    for (const name of Object.keys(schedules)) {
      expect(fromMicros(engine.ledger.balance(name)!), name).toBe(Math.max(0, expected[name]!.credits_left));
      expect(readCredits(org)[name]!.credits_left, name).toBe(expected[name]!.credits_left);
    }
    expect(expected.alpha!.credits_left).toBe(0);
  });
});
