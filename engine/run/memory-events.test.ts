import { describe, expect, it } from 'vitest';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();

describe('memory events in the timeline', () => {
  it('record the appended item, not the whole list, so 1,000 appends keep every event under 1 KB', async () => {
    const org = world.orgs.build({
      'lemming/config/models.json': {
        scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
      },
      'script.json': {
        default: [{ respond: { memory_updates: [{ key: 'seen', op: 'append', value: 'x' }] } }],
      },
      'lemming/config/credits.json': { keeper: { model: 'scripted', cost_per_action: 0, credits_left: 10 } },
      'agents/keeper/resume.json': resume('keeper'),
    });
    const engine = await world.open(org);
    for (let tick = 1; tick <= 1000; tick += 1) await engine.runTick();

    const sizes = engine.timeline.db
      .prepare(`SELECT length(json) FROM events WHERE kind = 'memory_update'`)
      .pluck()
      .all() as number[];
    expect(sizes).toHaveLength(1000);
    expect(Math.max(...sizes)).toBeLessThan(1024);
    const last = engine.timeline.db
      .prepare(`SELECT json FROM events WHERE kind = 'memory_update' ORDER BY seq DESC LIMIT 1`)
      .pluck()
      .get() as string;
    expect(JSON.parse(last)).toMatchObject({ key: 'seen', op: 'append', appended: ['x'] });
    expect(JSON.parse(last)).not.toHaveProperty('value');
  }, 120_000);
});
