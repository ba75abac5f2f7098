import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../models/test-support/loopback-server';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  orgs.cleanup();
});

/** Answers every call with 10 tokens in and 100 out. */
async function usageServer(): Promise<LoopbackServer> {
  const server = await startLoopbackServer((_request, response) =>
    sendJson(response, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: '{"notes":"done"}' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 100, total_tokens: 110 },
    }),
  );
  servers.push(server);
  return server;
}

const model = (url: string, prices?: object) => ({
  provider: 'openai-compatible',
  model_name: 'test',
  provider_config: { base_url: `${url}/v1`, max_retries: 0, timeout_ms: 2000, ...(prices ? { prices } : {}) },
});

describe('lemming credits with budgets and unpriced models', () => {
  it('shows an unpriced model as "unpriced" with its tokens, what a money budget cannot see, and resumes an agent paused over its budget', async () => {
    const server = await usageServer();
    const org = orgs.build({
      'lemming/config/models.json': {
        priced: model(server.url, { input_per_million: 0, output_per_million: 2000 }),
        local: model(server.url),
      },
      'lemming/config/credits.json': {
        spender: { model: 'priced', cost_per_action: 0, credits_left: 10 },
        thrifty: { model: 'local', cost_per_action: 0.5, credits_left: 10, max_credits: 10, soft_cap: 1 },
      },
      'lemming/config/budgets.json': { org: { daily_money: 5 }, agents: { spender: { daily_credits: 0.4 } } },
      'agents/spender/resume.json': resume('spender', { model: { key: 'priced', max_tokens: 100 } }),
      'agents/thrifty/resume.json': resume('thrifty', { model: { key: 'local', max_tokens: 100 } }),
    });
    expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
    expect((await runCli(['run', org, '--ticks', '3'])).code).toBe(0);
    expect(server.received).toHaveLength(5);

    const shown = await runCli(['credits', org]);
    expect(shown.stdout).toContain(
      'thrifty: 8.5\n  model local: unpriced (no prices in models.json), 3 calls, 30 tokens in, 300 tokens out\n' +
        '  soft cap 1: 1.5 spent since it was last given credits (reached)\n',
    );
    expect(shown.stdout).toMatch(/cannot see thrifty \(unpriced\)/);
    expect(shown.stdout).toContain('  budget 0.4 credits a day: 0.4 of 0.4 spent');
    expect(shown.stdout).toContain(
      '  Paused: spender is over its budget of 0.4 credits a day. It goes on when you resume it, or when the day ends. (lemming credits <org> resume spender)',
    );
    const json = JSON.parse((await runCli(['credits', org, 'show', 'thrifty', '--json'])).stdout);
    expect(json.balances[0].unpriced).toEqual({
      model: 'local',
      calls: 3,
      inputTokens: 30,
      outputTokens: 300,
    });

    expect((await runCli(['credits', org, 'resume', 'spender'])).stdout).toBe(
      'spender resumed: it may spend one more budget for the rest of the day or month.\n',
    );
    expect((await runCli(['credits', org, 'resume', 'spender'])).stdout).toBe(
      'spender is not paused over a budget.\n',
    );
    expect((await runCli(['credits', org])).stdout).not.toContain('Paused');
    expect((await runCli(['credits', org, 'resume', 'nobody'])).stderr).toMatch(/no agent named "nobody"/);
    expect((await runCli(['run', org, '--ticks', '1'])).code).toBe(0);
    expect(server.received).toHaveLength(7);
  });
});
