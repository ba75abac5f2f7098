import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findModelEntry, MODELS_FILE, parseModelsFile, readModelsFile } from './models-file';

const UPSTREAM_ORG = '/work/shared/fixtures/lemming-upstream/example-org';

describe('readModelsFile', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("reads LeMMing's default models.json unchanged", async () => {
    const org = await mkdtemp(join(tmpdir(), 'models-file-'));
    dirs.push(org);
    await cp(join(UPSTREAM_ORG, 'lemming'), join(org, 'lemming'), { recursive: true });

    const models = await readModelsFile(org);

    expect(models.problems).toEqual([]);
    expect(models.warnings).toEqual([]);
    expect(models.entries.map((entry) => entry.key)).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
      'gpt-4-turbo',
      'gpt-4',
      'gpt-3.5-turbo',
      'claude-3-opus',
      'claude-3-sonnet',
      'claude-3-haiku',
      'gpt-4.1-mini',
      'cli-echo',
    ]);
    expect(findModelEntry(models, 'claude-3-sonnet')).toMatchObject({
      provider: 'anthropic',
      model_name: 'claude-3-5-sonnet-20240620',
    });
    expect(findModelEntry(models, 'cli-echo')?.provider_config.command).toEqual(['echo']);
  });

  it('reports a missing file as a problem naming the file', async () => {
    const org = await mkdtemp(join(tmpdir(), 'models-file-'));
    dirs.push(org);
    const models = await readModelsFile(org);
    expect(models.entries).toEqual([]);
    expect(models.problems).toEqual([{ file: MODELS_FILE, field: '', message: 'the file does not exist' }]);
  });
});

describe('parseModelsFile', () => {
  it('gives line and column for invalid JSON', () => {
    const models = parseModelsFile('{\n  "a": {"provider": "openai",\n  "model_name": "m",\n  }\n}');
    expect(models.entries).toEqual([]);
    expect(models.problems).toHaveLength(1);
    expect(models.problems[0]).toMatchObject({ file: MODELS_FILE, field: '', line: 4, column: 3 });
    expect(models.problems[0]?.message).toMatch(/^invalid JSON/);
  });

  it('refuses a top level that is not an object', () => {
    expect(parseModelsFile('[1, 2]').problems).toEqual([
      { file: MODELS_FILE, field: '', message: 'models.json must be an object of model keys' },
    ]);
  });

  it('keeps the valid entries and names the key and field of each invalid one', () => {
    const models = parseModelsFile(
      JSON.stringify({
        good: { provider: 'ollama', model_name: 'llama3.2' },
        no_name: { provider: 'openai' },
        bad_url: { provider: 'openai-compatible', model_name: 'm', provider_config: { base_url: 'ftp://x' } },
        bad_timeout: {
          provider: 'openai',
          model_name: 'm',
          provider_config: { timeout_ms: -5, max_retries: 2.5 },
        },
        bad_price: {
          provider: 'openai',
          model_name: 'm',
          provider_config: { prices: { input_per_million: 'cheap', output_per_million: 1 } },
        },
        bad_header: {
          provider: 'openai',
          model_name: 'm',
          provider_config: { headers: { 'X-Title': 'a\r\nInjected: yes' } },
        },
        bad_command: { provider: 'cli', model_name: 'c', provider_config: { command: "say 'unclosed" } },
        not_object: 'gpt-4o',
      }),
    );

    expect(models.entries.map((entry) => entry.key)).toEqual(['good']);
    expect(models.problems).toEqual([
      {
        file: MODELS_FILE,
        field: 'no_name.model_name',
        message: 'model "no_name" is missing required field "model_name"',
      },
      {
        file: MODELS_FILE,
        field: 'bad_url.provider_config.base_url',
        message: 'model "bad_url": base_url must be an http:// or https:// address',
      },
      {
        file: MODELS_FILE,
        field: 'bad_timeout.provider_config.timeout_ms',
        message: 'model "bad_timeout": timeout_ms must be greater than 0',
      },
      {
        file: MODELS_FILE,
        field: 'bad_timeout.provider_config.max_retries',
        message: 'model "bad_timeout": max_retries must be a whole number',
      },
      {
        file: MODELS_FILE,
        field: 'bad_price.provider_config.prices.input_per_million',
        message: 'model "bad_price": prices.input_per_million must be a number',
      },
      {
        file: MODELS_FILE,
        field: 'bad_header.provider_config.headers.X-Title',
        message: 'model "bad_header": header X-Title must not contain line breaks',
      },
      {
        file: MODELS_FILE,
        field: 'bad_command.provider_config.command',
        message:
          'model "bad_command": command cannot be split: no closing quotation (a single quote is not closed)',
      },
      {
        file: MODELS_FILE,
        field: 'not_object',
        message: 'model "not_object" must be an object with provider and model_name',
      },
    ]);
  });

  it('keeps unknown fields at every level and splits a string command like shlex', () => {
    const models = parseModelsFile(
      JSON.stringify({
        local: {
          provider: 'cli',
          model_name: 'llm',
          added_by_someone: { keep: true },
          provider_config: { command: `llm -m "gpt 4" --no-stream`, future_option: 3 },
        },
      }),
    );
    expect(models.problems).toEqual([]);
    const entry = models.entries[0];
    expect(entry).toMatchObject({ key: 'local', added_by_someone: { keep: true } });
    expect(entry?.provider_config).toMatchObject({
      command: ['llm', '-m', 'gpt 4', '--no-stream'],
      future_option: 3,
    });
  });

  it('warns about unknown providers and credential-looking headers without dropping the entry', () => {
    const models = parseModelsFile(
      JSON.stringify({
        custom: { provider: 'my-plugin', model_name: 'x' },
        leaky: {
          provider: 'openai',
          model_name: 'gpt-4o',
          provider_config: { headers: { Authorization: 'Bearer sk-abc' } },
        },
      }),
    );
    expect(models.entries.map((entry) => entry.key)).toEqual(['custom', 'leaky']);
    expect(models.warnings.map((warning) => warning.field)).toEqual([
      'custom.provider',
      'leaky.provider_config.headers.Authorization',
    ]);
    expect(models.warnings[0]?.message).toContain('unknown provider "my-plugin"');
  });
});

describe('what a model takes besides text (input)', () => {
  it('reads "text", "image" and "audio", and names the entry and field of anything else', () => {
    const models = parseModelsFile(
      JSON.stringify({
        seeing: { provider: 'openai', model_name: 'gpt-4o', input: ['text', 'image'] },
        watching: { provider: 'openai', model_name: 'x', input: ['video'] },
      }),
    );
    expect(models.entries.map((entry) => [entry.key, entry.input])).toEqual([['seeing', ['text', 'image']]]);
    expect(models.problems).toMatchObject([
      { field: 'watching.input.0', message: expect.stringContaining('"text", "image" and "audio"') },
    ]);
  });
});
