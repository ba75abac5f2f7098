import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultCreditEntry, readCredits, updateCredits } from './credits-file';
import { DEFAULT_ORG_CONFIG, readOrgConfig, updateOrgConfig } from './org-config-file';
import { readNextTick, writeNextTick } from './tick-file';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream');

let org: string;

beforeEach(async () => {
  org = await mkdtemp(join(tmpdir(), 'lemming-config-'));
});

afterEach(async () => {
  await rm(org, { recursive: true, force: true });
});

const configPath = (name: string) => join(org, 'lemming', 'config', name);

async function writeConfig(name: string, text: string): Promise<void> {
  await mkdir(join(org, 'lemming', 'config'), { recursive: true });
  await writeFile(configPath(name), text);
}

async function copyFixtureConfig(from: string): Promise<void> {
  await cp(join(FIXTURES, from, 'lemming', 'config'), join(org, 'lemming', 'config'), { recursive: true });
}

describe('org_config.json', () => {
  it("reads LeMMing's example file", async () => {
    await copyFixtureConfig('example-org');
    expect(await readOrgConfig(org)).toMatchObject({
      ok: true,
      exists: true,
      value: DEFAULT_ORG_CONFIG,
      warnings: [],
    });
  });

  it("gives LeMMing's defaults when the file is missing, and creates it on the first change", async () => {
    expect(await readOrgConfig(org)).toMatchObject({
      ok: true,
      exists: false,
      text: null,
      value: DEFAULT_ORG_CONFIG,
    });
    const updated = await updateOrgConfig(org, { max_turns: 50 });
    expect(updated.ok && updated.value.max_turns).toBe(50);
    expect(await readFile(configPath('org_config.json'), 'utf8')).toBe(
      '{\n  "base_turn_seconds": 10,\n  "summary_every_n_turns": 12,\n  "max_turns": 50,\n  "max_outbox_age_ticks": 100\n}\n',
    );
  });

  it('fills missing keys with defaults and keeps unknown keys, warning that LeMMing rejects them', async () => {
    await writeConfig('org_config.json', '{\n  "max_turns": 5,\n  "theme": "dark"\n}');
    const read = await readOrgConfig(org);
    expect(read).toMatchObject({
      ok: true,
      value: { base_turn_seconds: 10, max_turns: 5, max_outbox_age_ticks: 100, theme: 'dark' },
    });
    if (!read.ok) return;
    expect(read.warnings.map((warning) => [warning.field, warning.line])).toEqual([
      ['base_turn_seconds', undefined],
      ['theme', 3],
    ]);
    expect(read.warnings[1]?.message).toMatch(/"theme" is kept, but LeMMing's validate rejects unknown keys/);
  });

  it('names the file, field, line and column of an invalid value', async () => {
    await writeConfig('org_config.json', '{\n  "base_turn_seconds": 0,\n  "max_turns": 2.5\n}');
    expect(await readOrgConfig(org)).toEqual({
      ok: false,
      error: [
        {
          file: 'lemming/config/org_config.json',
          field: 'base_turn_seconds',
          message: 'base_turn_seconds must be greater than 0',
          line: 2,
          column: 24,
        },
        {
          file: 'lemming/config/org_config.json',
          field: 'max_turns',
          message: 'max_turns must be a whole number',
          line: 3,
          column: 16,
        },
      ],
    });
  });

  it('reports invalid JSON with line and column', async () => {
    await writeConfig('org_config.json', '{\n  "base_turn_seconds": 10\n  "max_turns": null\n}');
    const read = await readOrgConfig(org);
    expect(read).toMatchObject({
      ok: false,
      error: [{ file: 'lemming/config/org_config.json', line: 3, column: 3 }],
    });
  });

  it('changes one setting without touching the rest of the file, and refuses an invalid one', async () => {
    const original = '{\n  "base_turn_seconds": 10.0,\n  "theme": {"x": 1},\n  "max_turns": null\n}';
    await writeConfig('org_config.json', original);
    expect((await updateOrgConfig(org, { max_turns: 3 })).ok).toBe(true);
    expect(await readFile(configPath('org_config.json'), 'utf8')).toBe(
      original.replace('"max_turns": null', '"max_turns": 3'),
    );

    const refused = await updateOrgConfig(org, { base_turn_seconds: -1 });
    expect(refused).toMatchObject({
      ok: false,
      error: [{ field: 'base_turn_seconds', message: 'base_turn_seconds must be greater than 0' }],
    });
    expect(await readFile(configPath('org_config.json'), 'utf8')).toBe(
      original.replace('"max_turns": null', '"max_turns": 3'),
    );
  });
});

describe('credits.json', () => {
  it("reads the balances LeMMing's engine wrote", async () => {
    await copyFixtureConfig('engine-output/happy_path');
    const read = await readCredits(org);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.manager).toEqual({
      model: 'gpt-4o',
      cost_per_action: 0.01,
      credits_left: 999.97,
      max_credits: 1000,
      soft_cap: 500,
    });
    expect(read.value.agent_template).toEqual({
      model: 'gpt-4.1-mini',
      cost_per_action: 0.01,
      credits_left: 100,
    });
    expect(read.warnings).toEqual([]);
  });

  it('reads a missing file as no balances', async () => {
    expect(await readCredits(org)).toMatchObject({ ok: true, exists: false, value: {} });
  });

  it('keeps the file in LeMMing’s shape when one balance changes: only that number’s bytes move', async () => {
    await copyFixtureConfig('engine-output/failure_cases');
    const before = await readFile(configPath('credits.json'), 'utf8');
    expect((await updateCredits(org, { flaky: { credits_left: 4.99 } })).ok).toBe(true);
    expect(await readFile(configPath('credits.json'), 'utf8')).toBe(
      before.replace('"credits_left": 5.0', '"credits_left": 4.99'),
    );
  });

  it('appends a new agent’s entry in the same layout', async () => {
    await copyFixtureConfig('engine-output/failure_cases');
    const entry = defaultCreditEntry({
      model: { key: 'gpt-4o' },
      credits: { max_credits: 300, soft_cap: 150 },
    });
    expect((await updateCredits(org, { writer: entry })).ok).toBe(true);
    const text = await readFile(configPath('credits.json'), 'utf8');
    expect(
      text.endsWith(
        '  },\n  "writer": {\n    "model": "gpt-4o",\n    "cost_per_action": 0.01,\n    "credits_left": 300,\n    "max_credits": 300,\n    "soft_cap": 150\n  }\n}',
      ),
    ).toBe(true);
  });

  it('refuses an incomplete new entry and writes nothing', async () => {
    await copyFixtureConfig('engine-output/failure_cases');
    const before = await readFile(configPath('credits.json'), 'utf8');
    const refused = await updateCredits(org, { writer: { credits_left: 5 } });
    expect(refused).toMatchObject({
      ok: false,
      error: [
        { field: 'writer.model', message: 'missing required field "writer.model"' },
        { field: 'writer.cost_per_action' },
      ],
    });
    expect(await readFile(configPath('credits.json'), 'utf8')).toBe(before);
  });

  it('keeps unknown keys in an entry and warns that LeMMing rejects them', async () => {
    await writeConfig(
      'credits.json',
      '{\n  "a": {"model": "m", "cost_per_action": 0, "credits_left": 1, "note": "vip"}\n}',
    );
    const read = await readCredits(org);
    expect(read.ok && read.value.a).toMatchObject({ note: 'vip' });
    expect(read.ok && read.warnings.map((warning) => [warning.field, warning.line])).toEqual([['a.note', 2]]);
  });

  it('reports a negative cost and a non-object entry with their places', async () => {
    await writeConfig(
      'credits.json',
      '{\n  "a": {"model": "m", "cost_per_action": -1, "credits_left": 1},\n  "b": 3\n}',
    );
    expect(await readCredits(org)).toMatchObject({
      ok: false,
      error: [
        { field: 'a.cost_per_action', message: 'cost_per_action must not be negative', line: 2 },
        { field: 'b', message: 'each agent in credits.json must be an object', line: 3 },
      ],
    });
  });

  it('loses no charge when balances of several agents are written at once', async () => {
    const agents = Array.from({ length: 15 }, (_, index) => `agent_${index}`);
    const writes = agents.map((agent) =>
      updateCredits(org, { [agent]: { model: 'm', cost_per_action: 0.01, credits_left: 10 } }),
    );
    expect((await Promise.all(writes)).every((result) => result.ok)).toBe(true);
    const read = await readCredits(org);
    expect(read.ok && Object.keys(read.value)).toEqual(agents);
    expect(await readdir(join(org, 'lemming', 'config'))).toEqual(['credits.json']);
  });

  it('seeds an entry like LeMMing for a resume without credits', () => {
    expect(defaultCreditEntry({ model: { key: 'gpt-4o-mini' } })).toEqual({
      model: 'gpt-4o-mini',
      cost_per_action: 0.01,
      credits_left: 1000,
      max_credits: 1000,
      soft_cap: 500,
    });
  });
});

describe('tick.json', () => {
  it('holds the next tick: 4 after LeMMing ran three ticks', async () => {
    await copyFixtureConfig('engine-output/happy_path');
    expect(await readNextTick(org)).toEqual({ ok: true, value: { nextTick: 4, exists: true } });
  });

  it('starts at 1 when the file is missing', async () => {
    expect(await readNextTick(org)).toEqual({ ok: true, value: { nextTick: 1, exists: false } });
  });

  it('writes the next tick in LeMMing’s shape, keeping the file’s ending and other keys', async () => {
    await writeNextTick(org, 2);
    expect(await readFile(configPath('tick.json'), 'utf8')).toBe('{\n  "current_tick": 2\n}\n');
    await writeConfig('tick.json', '{\n  "current_tick": 4,\n  "run_id": "abc"\n}');
    await writeNextTick(org, 5);
    expect(await readFile(configPath('tick.json'), 'utf8')).toBe(
      '{\n  "current_tick": 5,\n  "run_id": "abc"\n}',
    );
  });

  it('refuses a tick that is not a whole number, in the file and as a value', async () => {
    await writeConfig('tick.json', '{"current_tick": "4"}');
    expect(await readNextTick(org)).toMatchObject({
      ok: false,
      error: [
        {
          file: 'lemming/config/tick.json',
          field: 'current_tick',
          message: 'current_tick must be a whole number',
          line: 1,
          column: 18,
        },
      ],
    });
    await writeConfig('tick.json', '{"current_tick": 4}');
    expect((await writeNextTick(org, 4.5)).ok).toBe(false);
    expect(await readFile(configPath('tick.json'), 'utf8')).toBe('{"current_tick": 4}');
  });
});
