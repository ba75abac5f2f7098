import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseModelsFile } from '../models/models-file';
import { readCredits } from '../org/credits-file';
import { discoverAgents } from '../org/discover';
import { initOrg } from './init-org';
import { readOrgConfig } from '../org/org-config-file';
import { readNextTick } from '../org/tick-file';

const EXAMPLE_HUMAN = resolve(
  import.meta.dirname,
  '../../../shared/fixtures/lemming-upstream/example-org/agents/human/resume.json',
);

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lemming-init-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('initOrg', () => {
  it('creates an org whose every file reads back valid, without warnings', async () => {
    const org = join(dir, 'my-org');
    const result = await initOrg(org, { name: 'Research team' });
    expect(result).toEqual({
      ok: true,
      value: {
        path: org,
        created: [
          'agents/human/resume.json',
          'lemming/config/org_config.json',
          'lemming/config/credits.json',
          'lemming/config/tick.json',
          'lemming/config/models.json',
          'README.md',
        ],
        kept: [],
      },
    });

    const agents = await discoverAgents(org);
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ folder: 'human', valid: true, warnings: [] });
    expect(await readOrgConfig(org)).toMatchObject({ ok: true, exists: true, warnings: [] });
    expect(await readCredits(org)).toMatchObject({
      ok: true,
      warnings: [],
      value: {
        human: {
          model: 'none',
          cost_per_action: 0.01,
          credits_left: 999999,
          max_credits: 999999,
          soft_cap: 999999,
        },
      },
    });
    expect(await readNextTick(org)).toEqual({ ok: true, value: { nextTick: 1, exists: true } });
    expect(parseModelsFile(await readFile(join(org, 'lemming/config/models.json'), 'utf8'))).toMatchObject({
      problems: [],
    });
    expect((await readFile(join(org, 'README.md'), 'utf8')).startsWith('# Research team\n')).toBe(true);
    expect(await readdir(join(org, 'shared'))).toEqual([]);
    expect(await readdir(join(org, 'agents', 'human', 'outbox'))).toEqual([]);
  });

  it("writes the human pseudo-agent with the same data as LeMMing's own", async () => {
    await initOrg(dir);
    const ours = JSON.parse(await readFile(join(dir, 'agents/human/resume.json'), 'utf8'));
    const lemmings = JSON.parse(await readFile(EXAMPLE_HUMAN, 'utf8'));
    expect(ours).toEqual(lemmings);
  });

  it('writes the models registry it is given', async () => {
    const models = { local: { provider: 'ollama', model_name: 'llama3' } };
    await initOrg(dir, { models });
    expect(JSON.parse(await readFile(join(dir, 'lemming/config/models.json'), 'utf8'))).toEqual(models);
  });

  it('refuses a folder that already holds files, and changes nothing in it', async () => {
    await writeFile(join(dir, 'notes.txt'), 'mine');
    const result = await initOrg(dir);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error[0]?.message).toMatch(/is not empty/);
    expect(await readdir(dir)).toEqual(['notes.txt']);
  });

  it('ignores files the operating system leaves in folders', async () => {
    await writeFile(join(dir, '.DS_Store'), '');
    expect((await initOrg(dir)).ok).toBe(true);
  });

  it('when asked, sets up only what is missing and overwrites nothing', async () => {
    await mkdir(join(dir, 'lemming', 'config'), { recursive: true });
    await writeFile(join(dir, 'lemming/config/tick.json'), '{"current_tick": 42}');
    const result = await initOrg(dir, { force: true });
    expect(result.ok && result.value.kept).toEqual(['lemming/config/tick.json']);
    expect(await readFile(join(dir, 'lemming/config/tick.json'), 'utf8')).toBe('{"current_tick": 42}');
    expect(await readNextTick(dir)).toMatchObject({ value: { nextTick: 42 } });
  });

  it('refuses a path that is a file', async () => {
    await writeFile(join(dir, 'file'), '');
    const result = await initOrg(join(dir, 'file'));
    expect(result.ok || result.error[0]?.message).toMatch(/is a file, not a folder/);
  });
});
