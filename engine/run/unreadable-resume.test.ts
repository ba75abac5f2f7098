import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();

describe('an agent whose resume.json cannot be read', () => {
  it('has its turn recorded as skipped with the read error, while the others run, and runs again once readable', async () => {
    const org = world.orgs.build({
      'lemming/config/models.json': {
        scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
      },
      'script.json': { default: [{ respond: { notes: 'ok' } }] },
      'lemming/config/credits.json': {
        w1: { model: 'scripted', cost_per_action: 0, credits_left: 10 },
        w2: { model: 'scripted', cost_per_action: 0, credits_left: 10 },
      },
      'agents/w1/resume.json': resume('w1'),
      'agents/w2/resume.json': resume('w2'),
    });
    const engine = await world.open(org);
    const resumeFile = join(org, 'agents/w1/resume.json');
    const text = readFileSync(resumeFile, 'utf8');
    rmSync(resumeFile);
    mkdirSync(resumeFile);

    expect((await engine.runTick()).turns).toEqual([
      { agent: 'w1', status: 'skipped', reason: 'invalid_resume' },
      { agent: 'w2', status: 'completed' },
    ]);
    const rows = engine.timeline.page({ kinds: ['skip', 'warning'], direction: 'asc', limit: 10 }).rows;
    expect(rows.map((row) => JSON.parse(row.json) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        kind: 'skip',
        agent: 'w1',
        reason: 'invalid_resume',
        message: expect.stringMatching(
          /^w1 did not run: its agents\/w1\/resume.json could not be read \(cannot read: EISDIR.*\); it runs again once the file can be read\.$/,
        ),
      }),
    ]);

    rmSync(resumeFile, { recursive: true });
    writeFileSync(resumeFile, text);
    expect((await engine.runTick()).turns).toEqual([
      { agent: 'w1', status: 'completed' },
      { agent: 'w2', status: 'completed' },
    ]);
  });
});
