import { describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import { engineWorld } from '../run/test-support/engine-world';
import { resume } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { discoverAgents } from '../org/discover';
import { agentStates } from './agent-states';
import { resumeBudget } from './budgets';
import { creditBalances } from './credits';
import { runReadiness } from './run-readiness';
import { orgContextOf } from './test-support/org-context-of';

const world = engineWorld();

describe('an agent paused over a budget, as the app shows it', () => {
  it('is "over budget" in its state, the run readiness and the credits panel until resumed', async () => {
    const server = world.serve(
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
    const org = world.orgs.build({
      'lemming/config/models.json': {
        m: {
          provider: 'openai-compatible',
          model_name: 'test',
          provider_config: {
            base_url: `${server.url}/v1`,
            max_retries: 0,
            prices: { input_per_million: 0, output_per_million: 2000 },
          },
        },
      },
      'lemming/config/credits.json': { a: { model: 'm', cost_per_action: 0, credits_left: 10 } },
      'lemming/config/budgets.json': { org: { monthly_credits: 100 }, agents: { a: { daily_credits: 0.2 } } },
      'agents/a/resume.json': resume('a', { model: { key: 'm', max_tokens: 100 } }),
    });
    const engine = await world.open(org);
    const context = orgContextOf(engine, await trustAsIs(org));
    const stateOfA = async () => (await agentStates(context, await discoverAgents(org))).get('a');

    await engine.runTick();
    expect((await stateOfA())?.kind).toBe('ready');
    await engine.runTick();
    const paused = await stateOfA();
    expect(paused).toEqual({
      kind: 'over_budget',
      words:
        'Paused: a is over its budget of 0.2 credits a day. It goes on when you resume it, or when the day ends.',
    });
    const readiness = await runReadiness(context);
    expect(readiness.ok && readiness.value.blocked).toEqual([
      {
        agent: 'a',
        state: paused,
        reason: 'it is paused over a budget (resume it in Credits)',
        detail: paused?.words,
        fixIn: null,
      },
    ]);
    const balances = await creditBalances(context);
    expect(balances.ok && balances.value[0]).toMatchObject({
      overBudget: paused?.words,
      unpriced: null,
      budgets: [
        { scope: 'agent', budget: 'daily_credits', limit: 0.2, spent: 0.2, paused: true },
        { scope: 'org', budget: 'monthly_credits', limit: 100, spent: 0.2, paused: false, warned: false },
      ],
    });

    expect(await resumeBudget(context, { agent: 'a' })).toEqual({
      ok: true,
      value: { agent: 'a', resumed: 1 },
    });
    expect((await stateOfA())?.kind).toBe('ready');
    const after = await creditBalances(context);
    expect(after.ok && after.value[0]?.budgets[0]).toMatchObject({
      limit: 0.4,
      paused: false,
      warned: false,
    });
  });
});
