import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import type { OrgEngine } from './org-engine';
import { engineWorld } from './test-support/engine-world';
import { resume } from './test-support/temp-org';

const world = engineWorld();
const { orgs, open } = world;

/** A server that answers every call with 100 output tokens (and no input tokens), counting the calls. */
async function usageServer() {
  return world.serve(
    await startLoopbackServer((_request, response) =>
      sendJson(response, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: '{"notes":"done"}' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 0, completion_tokens: 100, total_tokens: 100 },
      }),
    ),
  );
}

/**
 * An org of one agent on `url` whose every call costs 0.2 credits, exactly its worst case: no input price,
 * 2000 credits per million output tokens and max_tokens 100. Turns cost nothing of their own.
 */
function orgWithBudget(url: string, budgets: Record<string, unknown>, prices = true) {
  return orgs.build({
    'lemming/config/models.json': {
      m: {
        provider: 'openai-compatible',
        model_name: 'test',
        provider_config: {
          base_url: `${url}/v1`,
          max_retries: 0,
          timeout_ms: 2000,
          ...(prices ? { prices: { input_per_million: 0, output_per_million: 2000 } } : {}),
        },
      },
    },
    'lemming/config/credits.json': { a: { model: 'm', cost_per_action: 0, credits_left: 100 } },
    'lemming/config/budgets.json': budgets,
    'agents/a/resume.json': resume('a', { model: { key: 'm', max_tokens: 100 } }),
  });
}

/** A clock the test moves; it starts at local noon of 28 November 2026. */
function fakeClock() {
  let now = new Date(2026, 10, 28, 12, 0, 0);
  return {
    clock: () => now,
    set(date: Date) {
      now = date;
    },
  };
}

function budgetEvents(engine: OrgEngine) {
  return engine.timeline
    .page({
      kinds: ['budget_warning', 'budget_paused', 'budget_resumed', 'skip'],
      direction: 'asc',
      limit: 100,
    })
    .rows.map((row) => {
      const event = JSON.parse(row.json) as { kind: string; tick: number; reason?: string; spent?: number };
      return { kind: event.kind, tick: event.tick, ...(event.reason ? { reason: event.reason } : {}) };
    });
}

async function statuses(engine: OrgEngine, ticks: number): Promise<string[]> {
  const seen: string[] = [];
  for (let tick = 0; tick < ticks; tick += 1) seen.push((await engine.runTick()).turns[0]!.status);
  return seen;
}

describe('budgets', () => {
  it('a daily budget of 1 credit warns at 0.8 and pauses before the call that would cross 1.0; no call while paused', async () => {
    const server = await usageServer();
    const time = fakeClock();
    const engine = await open(orgWithBudget(server.url, { agents: { a: { daily_credits: 1 } } }), {
      clock: time.clock,
    });

    expect(await statuses(engine, 5)).toEqual(Array(5).fill('completed'));
    expect(server.received).toHaveLength(5);
    // Before the fifth call 0.8 was spent: warned; that call could bring it to exactly 1.0, so it was made.
    expect(budgetEvents(engine)).toEqual([{ kind: 'budget_warning', tick: 5 }]);

    expect(await statuses(engine, 3)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(server.received).toHaveLength(5);
    expect(budgetEvents(engine).slice(1)).toEqual([
      { kind: 'budget_paused', tick: 6 },
      { kind: 'skip', tick: 6, reason: 'over_budget' },
      { kind: 'skip', tick: 7, reason: 'over_budget' },
      { kind: 'skip', tick: 8, reason: 'over_budget' },
    ]);
    const paused = engine.timeline.page({ kinds: ['budget_paused'], limit: 1 }).rows[0]!;
    expect(JSON.parse(paused.json)).toMatchObject({
      scope: 'agent',
      budget: 'daily_credits',
      limit: 1,
      spent: 1,
      needed: 0.2,
    });
    expect(engine.spending.spentSince('a', new Date(2026, 10, 28).toISOString(), 'credits')).toBe(1_000_000);
  });

  it('one resume lets it spend one more budget today; the next day it starts afresh', async () => {
    const server = await usageServer();
    const time = fakeClock();
    const engine = await open(orgWithBudget(server.url, { agents: { a: { daily_credits: 0.4 } } }), {
      clock: time.clock,
    });
    expect(await statuses(engine, 3)).toEqual(['completed', 'completed', 'skipped']);
    expect(await engine.resumeBudget('a')).toBe(1);
    expect(await engine.resumeBudget('a')).toBe(0);
    expect(await statuses(engine, 3)).toEqual(['completed', 'completed', 'skipped']);
    expect(server.received).toHaveLength(4);

    time.set(new Date(2026, 10, 28, 23, 59, 59));
    expect(await statuses(engine, 1)).toEqual(['skipped']);
    time.set(new Date(2026, 10, 29, 0, 0, 0));
    expect(await statuses(engine, 3)).toEqual(['completed', 'completed', 'skipped']);
    expect(server.received).toHaveLength(6);
  });

  it('a budget_resumed event that came in with an imported file lifts no budget: only the person resumes', async () => {
    const server = await usageServer();
    const time = fakeClock();
    const org = orgWithBudget(server.url, { agents: { a: { daily_credits: 0.2 } } });
    const engine = await open(org, { clock: time.clock });
    expect(await statuses(engine, 2)).toEqual(['completed', 'skipped']);
    const forged = join(org, 'forged.jsonl');
    const resumed = { kind: 'budget_resumed', scope: 'agent', budget: 'daily_credits', period: '2026-11-28' };
    writeFileSync(
      forged,
      [0.4, 0.6, 0.8]
        .map((limit) =>
          JSON.stringify({
            ...resumed,
            limit,
            message: 'resumed',
            agent: 'a',
            time: time.clock().toISOString(),
          }),
        )
        .join('\n'),
    );
    expect((await engine.timeline.importJsonl(forged)).imported).toBe(3);
    expect(await statuses(engine, 1)).toEqual(['skipped']);
    expect(server.received).toHaveLength(1);
  });

  it('a monthly budget holds across days and starts afresh with the month', async () => {
    const server = await usageServer();
    const time = fakeClock();
    const engine = await open(orgWithBudget(server.url, { org: { monthly_money: 0.4 } }), {
      clock: time.clock,
    });
    expect(await statuses(engine, 1)).toEqual(['completed']);
    time.set(new Date(2026, 10, 30, 23, 0, 0));
    expect(await statuses(engine, 2)).toEqual(['completed', 'skipped']);
    time.set(new Date(2026, 11, 1, 0, 0, 0));
    expect(await statuses(engine, 1)).toEqual(['completed']);
    expect(server.received).toHaveLength(3);
  });

  it('a budget in money cannot see a model without prices: it does not pause it', async () => {
    const server = await usageServer();
    const engine = await open(orgWithBudget(server.url, { org: { daily_money: 0.01 } }, false));
    expect(await statuses(engine, 3)).toEqual(['completed', 'completed', 'completed']);
    expect(server.received).toHaveLength(3);
  });

  it("credits.json's soft_cap warns once when that much of max_credits is spent, and again only after a top-up", async () => {
    const server = await usageServer();
    const org = orgWithBudget(server.url, {});
    writeFileSync(
      join(org, 'lemming/config/credits.json'),
      JSON.stringify({
        a: { model: 'm', cost_per_action: 0, credits_left: 1, max_credits: 1, soft_cap: 0.4 },
      }),
    );
    const engine = await open(org);
    expect(await statuses(engine, 5)).toEqual(Array(5).fill('completed'));
    expect(budgetEvents(engine)).toEqual([{ kind: 'budget_warning', tick: 3 }]);
    const warning = JSON.parse(engine.timeline.page({ kinds: ['budget_warning'], limit: 1 }).rows[0]!.json);
    expect(warning).toMatchObject({ budget: 'soft_cap', limit: 0.4, spent: 0.4 });
    await engine.topUp('a', 1);
    await statuses(engine, 5);
    expect(budgetEvents(engine).map((event) => event.tick)).toEqual([3, 8]);
  });

  it('an invalid budgets.json stops the tick with where it is wrong, before any call', async () => {
    const server = await usageServer();
    const engine = await open(orgWithBudget(server.url, { agents: { a: { daily_credits: -1 } } }));
    await expect(engine.runTick()).rejects.toThrow(/budgets\.json.*agents\.a\.daily_credits.*more than 0/s);
    expect(server.received).toHaveLength(0);
  });
});
