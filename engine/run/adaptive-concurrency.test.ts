import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OrgEngine } from './org-engine';
import { SERVER_LIMITS_FILE } from './server-limits';
import { startCapacityServer, type Capacity } from './test-support/capacity-servers';
import { engineWorld } from './test-support/engine-world';
import { resume } from './test-support/temp-org';

const world = engineWorld();

const AGENTS = Array.from({ length: 16 }, (_, index) => `agent_${String(index).padStart(2, '0')}`);
/** Short calls keep the test quick; judging latency, the limit needs calls long beside the engine's own work. */
const SHORT_MS = 20;
const LONG_MS = 150;

async function orgOn(
  capacity: Capacity,
  provider: 'openai-compatible' | 'ollama',
  {
    latencyMs = SHORT_MS,
    providerConfig = {},
  }: { latencyMs?: number; providerConfig?: Record<string, unknown> } = {},
) {
  const model = await startCapacityServer(capacity, latencyMs);
  world.serve(model.server);
  const org = world.orgs.build({
    'lemming/config/models.json': {
      checkin: {
        provider,
        model_name: 'checkin',
        provider_config: {
          base_url: provider === 'ollama' ? model.server.url : `${model.server.url}/v1`,
          timeout_ms: 10_000,
          ...providerConfig,
        },
      },
    },
    ...Object.fromEntries(
      AGENTS.map((name) => [`agents/${name}/resume.json`, resume(name, { model: { key: 'checkin' } })]),
    ),
  });
  return { org, model };
}

function tickRecord(engine: OrgEngine, tick: number) {
  const row = engine.timeline.db
    .prepare("SELECT json FROM events WHERE kind = 'tick_completed' AND tick = ?")
    .get(tick) as { json: string };
  return JSON.parse(row.json) as {
    server_wait: { turns: number; total_ms: number; longest_ms: number };
    server_limits: { server: string; limit: number; learned: boolean }[];
  };
}

describe('concurrency learned from each model server', () => {
  it(
    'fails no turn on a server that refuses calls beyond 2 in flight (429 with rate-limit headers), and the tick says how long turns waited',
    { timeout: 20_000 },
    async () => {
      const { org, model } = await orgOn({ kind: 'rate-limited', capacity: 2 }, 'openai-compatible');
      const engine = await world.open(org);
      for (let tick = 1; tick <= 3; tick += 1) {
        const report = await engine.runTick();
        expect(report.turns).toEqual(AGENTS.map((agent) => ({ agent, status: 'completed' })));
      }
      // The hosted-API default (32 at once) was refused, retried within the deadline and lowered.
      expect(model.counts.refused).toBeGreaterThan(0);
      expect(model.counts.answered).toBe(3 * AGENTS.length);
      const first = tickRecord(engine, 1);
      expect(first.server_wait.turns).toBeGreaterThan(0);
      expect(first.server_wait.longest_ms).toBeGreaterThan(0);
      const [server] = tickRecord(engine, 3).server_limits;
      expect(server).toMatchObject({ server: expect.stringContaining('openai-compatible'), learned: true });
      expect(server!.limit).toBeLessThan(32);
    },
  );

  it(
    'remembers what it learned of a server in the next run, and starts there',
    { timeout: 20_000 },
    async () => {
      const { org, model } = await orgOn({ kind: 'unlimited' }, 'ollama', { latencyMs: LONG_MS });
      const first = await world.open(org);
      await first.runTick();
      // Ollama's default is 4 at once; 16 agents on a server that takes them all doubled it twice.
      const learned = tickRecord(first, 1).server_limits[0]!.limit;
      expect(learned).toBeGreaterThanOrEqual(16);
      world.close(first);
      const saved = JSON.parse(readFileSync(join(org, SERVER_LIMITS_FILE), 'utf8')) as {
        servers: Record<string, { limit: number }>;
      };
      expect(Object.values(saved.servers).map((server) => server.limit)).toEqual([learned]);
      expect(Object.keys(saved.servers)[0]).toBe(`ollama ${model.server.url}/`);

      model.counts.most = 0;
      const second = await world.open(org);
      await second.runTick();
      expect(model.counts.most).toBe(AGENTS.length);
    },
  );

  it(
    'holds a model to max_concurrent_calls when it is set, and learns nothing',
    { timeout: 20_000 },
    async () => {
      const { org, model } = await orgOn({ kind: 'unlimited' }, 'ollama', {
        providerConfig: { max_concurrent_calls: 3 },
      });
      const engine = await world.open(org);
      await engine.runTick();
      await engine.runTick();
      expect(model.counts.most).toBe(3);
      expect(tickRecord(engine, 2).server_limits).toEqual([
        expect.objectContaining({ limit: 3, learned: false }),
      ]);
    },
  );
});
