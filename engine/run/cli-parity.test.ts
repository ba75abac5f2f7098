import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();
const { orgs } = world;

/** LeMMing's `OutboxEntry(**data)`: exactly these keys, `meta` and `recipients` optional, or the file is skipped. */
const LEMMING_REQUIRED = ['id', 'tick', 'agent', 'kind', 'payload', 'tags', 'created_at'];
const LEMMING_OPTIONAL = ['recipients', 'meta'];
function lemmingLoads(entry: Record<string, unknown>): boolean {
  const keys = Object.keys(entry);
  return (
    LEMMING_REQUIRED.every((key) => keys.includes(key)) &&
    keys.every((key) => LEMMING_REQUIRED.includes(key) || LEMMING_OPTIONAL.includes(key))
  );
}

/** LeMMing's firing rule, written out here independently: t mod N == P mod N with a floored modulo. */
function lemmingFiringTicks(ticks: number, every: number, offset: number): number[] {
  const floored = (a: number, n: number) => ((a % n) + n) % n;
  return Array.from({ length: ticks }, (_, index) => index + 1).filter(
    (tick) => floored(tick, every) === floored(offset, every),
  );
}

function outbox(org: string, agent: string): { name: string; entry: Record<string, unknown> }[] {
  const dir = join(org, 'agents', agent, 'outbox');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({
      name,
      entry: JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>,
    }));
}

describe('a LeMMing org of cli echo agents', () => {
  it("writes one outbox file per firing turn over 12 ticks, each one LeMMing loads, on LeMMing's firing ticks", async () => {
    const schedules = { relay: [1, 0], every_third: [3, 1], late: [4, -1] } as const;
    const org = orgs.build({
      'lemming/config/models.json': {
        'cli-echo': { provider: 'cli', model_name: 'echo', provider_config: { command: ['echo'] } },
      },
      'agents/relay/resume.json': resume('relay', {
        model: { key: 'cli-echo' },
        permissions: { read_outboxes: ['human'], tools: [] },
      }),
      'agents/every_third/resume.json': resume('every_third', {
        model: { key: 'cli-echo' },
        permissions: { read_outboxes: ['relay'], tools: [] },
        schedule: { run_every_n_ticks: 3, phase_offset: 1 },
      }),
      'agents/late/resume.json': resume('late', {
        model: { key: 'cli-echo' },
        permissions: { read_outboxes: ['every_third'], tools: [] },
        schedule: { run_every_n_ticks: 4, phase_offset: -1 },
      }),
    });
    const engine = await world.open(org, { env: { PATH: process.env.PATH } });
    await engine.sendHumanMessage('hello from the human');
    for (let tick = 1; tick <= 12; tick += 1) await engine.runTick();

    for (const [agent, [every, offset]] of Object.entries(schedules)) {
      const files = outbox(org, agent);
      expect(
        files.map((file) => Number(file.name.slice(0, 8))),
        agent,
      ).toEqual(lemmingFiringTicks(12, every, offset));
      for (const { entry } of files) {
        expect(lemmingLoads(entry), `${agent}: ${JSON.stringify(entry)}`).toBe(true);
        expect(entry).toMatchObject({ agent, kind: 'message', tags: ['cli_output'] });
      }
    }
    // Each program is handed the newest message it can read, read before or not, as LeMMing does.
    expect(outbox(org, 'relay').map(({ entry }) => (entry.payload as { text: string }).text)).toEqual(
      Array(12).fill('hello from the human\n'),
    );
    expect((outbox(org, 'late')[0]!.entry.payload as { text: string }).text).toBe(
      'hello from the human\n\n\n',
    );
  });
});
