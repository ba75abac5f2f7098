import { describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';
import { chatCompletion as completion } from '../models/test-support/chat-completion';

const world = engineWorld();
const { orgs } = world;

const AGENTS = Array.from({ length: 20 }, (_, index) => `agent_${String(index).padStart(2, '0')}`);

/**
 * An OpenAI-compatible server on loopback that takes `latencyMs` to answer each call and counts the
 * calls in flight; `rateLimited` calls (by arrival) get a 429 with Retry-After first.
 */
async function slowModelServer(latencyMs: number, rateLimited: (index: number) => boolean = () => false) {
  const flight = { now: 0, most: 0 };
  const server = await startLoopbackServer(async (request, response, index) => {
    if (rateLimited(index))
      return sendJson(response, 429, { error: { message: 'rate limited' } }, { 'retry-after': '0' });
    flight.now += 1;
    flight.most = Math.max(flight.most, flight.now);
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    flight.now -= 1;
    const agent = /You are (agent_\d+)/.exec(request.body)?.[1] ?? 'unknown';
    sendJson(
      response,
      200,
      completion(
        JSON.stringify({
          outbox_entries: [{ kind: 'status', payload: { text: `done by ${agent}` } }],
          notes: 'ok',
        }),
      ),
    );
  });
  world.serve(server);
  return { server, flight };
}

async function orgOnServer(url: string, providerConfig: Record<string, unknown> = {}) {
  const org = orgs.build({
    'lemming/config/models.json': {
      slow: {
        provider: 'openai-compatible',
        model_name: 'slow',
        provider_config: { base_url: `${url}/v1`, timeout_ms: 10_000, ...providerConfig },
      },
    },
    ...Object.fromEntries(
      AGENTS.map((name) => [`agents/${name}/resume.json`, resume(name, { model: { key: 'slow' } })]),
    ),
  });
  const engine = await world.open(org);
  return engine;
}

function committedOrder(engine: OrgEngine, tick: number): string[] {
  return (
    engine.timeline.db
      .prepare("SELECT agent FROM events WHERE kind = 'turn_completed' AND tick = ? ORDER BY seq")
      .all(tick) as { agent: string }[]
  ).map((row) => row.agent);
}

describe('agents that fire together on an I/O-bound model', () => {
  it(
    'take about one model call per tick, not one per agent, and still commit in LeMMing order',
    { timeout: 30_000 },
    async () => {
      const slow = await slowModelServer(1_000);
      const engine = await orgOnServer(slow.server.url);
      const began = performance.now();
      const report = await engine.runTick();
      const wallMs = performance.now() - began;
      expect(report.turns).toEqual(AGENTS.map((agent) => ({ agent, status: 'completed' })));
      expect(committedOrder(engine, 1)).toEqual(AGENTS);
      // The hosted-API default lets all 20 wait at once: one round of one-second calls.
      expect(slow.flight.most).toBe(20);
      expect(wallMs).toBeLessThanOrEqual(2_000);
    },
  );

  it('hold each provider to its limit (max_concurrent_calls)', { timeout: 30_000 }, async () => {
    const slow = await slowModelServer(100);
    const engine = await orgOnServer(slow.server.url, { max_concurrent_calls: 3 });
    const report = await engine.runTick();
    expect(report.turns.every((turn) => turn.status === 'completed')).toBe(true);
    expect(slow.flight.most).toBe(3);
    expect(committedOrder(engine, 1)).toEqual(AGENTS);
  });

  it('slow down on a rate limit (429) instead of failing turns', { timeout: 30_000 }, async () => {
    const slow = await slowModelServer(50, (index) => index < 10);
    const engine = await orgOnServer(slow.server.url, { max_retries: 3 });
    const report = await engine.runTick();
    expect(report.turns).toEqual(AGENTS.map((agent) => ({ agent, status: 'completed' })));
    expect(slow.server.received).toHaveLength(30);
    expect(committedOrder(engine, 1)).toEqual(AGENTS);
  });
});
