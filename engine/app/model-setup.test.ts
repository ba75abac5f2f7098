import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../api/result';
import { refusesNothing } from '../api/grant-refusal';
import { openFileSecretStore } from '../secrets/file-secret-store';
import { readGrantedValues, variablesIn } from '../trust/org-grants';
import { orgKeyOf } from '../trust/org-trust';
import { emptyTrustStore } from '../trust/test-support/trust-as-is';
import type { TrustStore } from '../trust/trust-store';
import { startFakeOpenAiServer } from '../models/test-support/fake-model-server';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../models/test-support/loopback-server';
import {
  addModelWithKey,
  apiKeySecretName,
  detectLocalServers,
  listServerModels,
  probeModel,
  type SetupDeps,
} from './model-setup';
import { useTempDirs } from '../../test/test-support/temp-dirs';

const tempDir = useTempDirs('lemming-setup-');
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve<T extends LoopbackServer>(started: Promise<T>): Promise<T> {
  const server = await started;
  servers.push(server);
  return server;
}

const deps = (orgPath = tempDir()): SetupDeps => ({
  orgPath,
  resolveSecret: () => undefined,
  env: {},
  refusal: refusesNothing,
  programEnv: {},
});

/** Setup deps as the app builds them: the stored secrets, only those granted to the org usable. */
async function grantedDeps(orgPath: string, trust: TrustStore, stored: Record<string, string>) {
  const granted = await readGrantedValues(orgPath, trust, new Map(Object.entries(stored)), variablesIn({}));
  return {
    ...deps(orgPath),
    resolveSecret: granted.secret,
    env: granted.variables,
    refusal: granted.refusal,
  };
}

/** A loopback address where nothing listens: a server started and closed again. */
async function deadAddress(): Promise<string> {
  const server = await startLoopbackServer(() => undefined);
  await server.close();
  return server.url;
}

describe("listing a server's models", () => {
  it('OpenAI-compatible: GET /v1/models with the typed key', async () => {
    const server = await serve(startFakeOpenAiServer({ key: 'sk-good', models: ['gpt-b', 'gpt-a'] }));
    const listed = await listServerModels(
      { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: 'sk-good' },
      deps(),
    );
    expect(listed).toEqual({
      ok: true,
      value: [
        { id: 'gpt-a', label: 'gpt-a' },
        { id: 'gpt-b', label: 'gpt-b' },
      ],
    });
    expect(server.received[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
    expect(server.received[0]?.headers.authorization).toBe('Bearer sk-good');
  });

  it('a wrong key is a plain-words problem at the key field', async () => {
    const server = await serve(startFakeOpenAiServer({ key: 'sk-good', models: ['gpt-a'] }));
    const listed = await listServerModels(
      { provider: 'openai', baseUrl: `${server.url}/v1`, apiKey: 'sk-wrong' },
      deps(),
    );
    expect(listed).toEqual({
      ok: false,
      error: {
        field: 'apiKey',
        kind: 'bad_key',
        message:
          'OpenAI did not accept this API key. Check that you copied all of it and that it is still active.',
      },
    });
    expect(JSON.stringify(listed)).not.toContain('sk-wrong');
  });

  it('a server that is not running, a missing key, a wrong address: each at its field', async () => {
    const dead = await deadAddress();
    const down = await listServerModels({ provider: 'ollama', baseUrl: dead }, deps());
    expect(down).toMatchObject({ ok: false, error: { field: 'baseUrl', kind: 'server_down' } });
    if (!down.ok)
      expect(down.error.message).toBe(
        `Nothing is answering at ${new URL(dead).host}. Is Ollama running? Start it, then try again.`,
      );

    expect(await listServerModels({ provider: 'openai' }, deps())).toMatchObject({
      ok: false,
      error: {
        field: 'apiKey',
        kind: 'bad_key',
        message: 'OpenAI needs an API key. Paste the key from your OpenAI account.',
      },
    });

    const server = await serve(startFakeOpenAiServer({ models: ['m'] }));
    expect(
      await listServerModels({ provider: 'openai-compatible', baseUrl: server.url }, deps()),
    ).toMatchObject({
      ok: false,
      error: {
        field: 'baseUrl',
        kind: 'wrong_url',
        message: expect.stringContaining('usually end in /v1'),
      },
    });
    expect(
      await listServerModels({ provider: 'openai-compatible', baseUrl: 'localhost:1234' }, deps()),
    ).toMatchObject({ ok: false, error: { field: 'baseUrl', kind: 'wrong_url' } });
  });

  it("Anthropic's list (x-api-key, display names) and Ollama's tags", async () => {
    const anthropic = await serve(
      startLoopbackServer((request, response) =>
        request.headers['x-api-key'] === 'sk-ant-good'
          ? sendJson(response, 200, {
              data: [
                {
                  type: 'model',
                  id: 'claude-x-1',
                  display_name: 'Claude X',
                  created_at: '2026-01-01T00:00:00Z',
                },
              ],
              has_more: false,
              first_id: 'claude-x-1',
              last_id: 'claude-x-1',
            })
          : sendJson(response, 401, {
              type: 'error',
              error: { type: 'authentication_error', message: 'invalid x-api-key' },
            }),
      ),
    );
    expect(
      await listServerModels(
        { provider: 'anthropic', baseUrl: anthropic.url, apiKey: 'sk-ant-good' },
        deps(),
      ),
    ).toEqual({ ok: true, value: [{ id: 'claude-x-1', label: 'Claude X' }] });
    expect(anthropic.received[0]?.path).toBe('/v1/models?limit=1000');
    expect(anthropic.received[0]?.headers['anthropic-version']).toBe('2023-06-01');

    const ollama = await serve(
      startLoopbackServer((_request, response) =>
        sendJson(response, 200, { models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', size: 1 }] }),
      ),
    );
    expect(await listServerModels({ provider: 'ollama', baseUrl: ollama.url }, deps())).toEqual({
      ok: true,
      value: [{ id: 'llama3.2:latest', label: 'llama3.2:latest' }],
    });
    expect(ollama.received[0]?.path).toBe('/api/tags');
  });

  it('uses the saved key of an existing model when none is typed, once the org may use it', async () => {
    const server = await serve(startFakeOpenAiServer({ key: 'sk-saved', models: ['m'] }));
    const org = tempDir();
    mkdirSync(join(org, 'lemming/config'), { recursive: true });
    writeFileSync(
      join(org, 'lemming/config/models.json'),
      JSON.stringify({
        mine: {
          provider: 'openai-compatible',
          model_name: 'm',
          provider_config: { api_key_secret: 'MINE_KEY' },
        },
      }),
    );
    const input = { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, existingModel: 'mine' };
    const trust = emptyTrustStore();
    const stored = { MINE_KEY: 'sk-saved' };

    expect(await listServerModels(input, await grantedDeps(org, trust, stored))).toEqual({
      ok: false,
      error: {
        field: 'apiKey',
        kind: 'bad_key',
        message:
          'This org is not allowed to use the saved key MINE_KEY: allow it in Settings → Secrets, or paste the key here.',
      },
    });
    expect(server.received).toEqual([]);

    await trust.grant(orgKeyOf(org), 'secrets', 'MINE_KEY', true);
    expect((await listServerModels(input, await grantedDeps(org, trust, stored))).ok).toBe(true);
    expect(server.received.at(-1)?.headers.authorization).toBe('Bearer sk-saved');
  });
});

describe('testing a model', () => {
  it('says what the model answered, or that the server has no such model', async () => {
    const server = await serve(startFakeOpenAiServer({ key: 'sk-good', models: ['gpt-a'] }));
    const input = { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: 'sk-good' };
    expect(await probeModel({ ...input, modelName: 'gpt-a' }, deps())).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^gpt-a answered in \d+ ms: "OK"\.$/),
      problem: null,
    });
    expect((server.received.at(-1)?.json as Record<string, unknown>).temperature).toBeUndefined();
    expect(await probeModel({ ...input, modelName: 'gpt-z' }, deps())).toMatchObject({
      ok: false,
      problem: {
        field: 'modelName',
        kind: 'model_not_found',
        message:
          'The OpenAI-compatible server has no model called “gpt-z”. Pick one from the list of its models.',
      },
    });
  });
});

describe('adding a model with its key', () => {
  it('keeps the key in the secret store under its provider account, names it in models.json and grants it to the org', async () => {
    const store = await openFileSecretStore(join(tempDir(), 'secrets.json'));
    if (!store.ok) throw new Error(store.error);
    const org = { orgPath: tempDir(), trust: emptyTrustStore() };
    const saved: unknown[] = [];
    const added = await addModelWithKey(
      { key: 'gpt-4o', provider: 'openai', modelName: 'gpt-4o', apiKey: 'sk-live-123' },
      {
        secrets: store.value.store,
        org,
        saveModel: async (key, patch) => (saved.push({ key, patch }), ok(null)),
      },
    );
    expect(added).toEqual({ ok: true, value: { secret: 'OPENAI_API_KEY' } });
    expect(org.trust.record(orgKeyOf(org.orgPath)).grants.secrets).toEqual(['OPENAI_API_KEY']);
    expect(await store.value.store.reveal('OPENAI_API_KEY')).toBe('sk-live-123');
    expect(saved).toEqual([
      {
        key: 'gpt-4o',
        patch: { provider: 'openai', model_name: 'gpt-4o', base_url: null, api_key_secret: 'OPENAI_API_KEY' },
      },
    ]);
    expect(JSON.stringify(saved)).not.toContain('sk-live-123');
  });

  it('removes the key it stored when the entry cannot be written', async () => {
    const store = await openFileSecretStore(join(tempDir(), 'secrets.json'));
    if (!store.ok) throw new Error(store.error);
    const refused = await addModelWithKey(
      { key: 'x', provider: 'openai', modelName: 'm', apiKey: 'sk-1' },
      {
        secrets: store.value.store,
        org: { orgPath: tempDir(), trust: emptyTrustStore() },
        saveModel: async () => ({ ok: false, error: { code: 'invalid_change', message: 'no' } }),
      },
    );
    expect(refused.ok).toBe(false);
    expect(await store.value.store.has('OPENAI_API_KEY')).toBe(false);
  });

  it('names secrets the way the secret store accepts', () => {
    expect(apiKeySecretName('gpt-4o')).toBe('GPT_4O_API_KEY');
    expect(apiKeySecretName('4o mini')).toBe('MODEL_4O_MINI_API_KEY');
    expect(apiKeySecretName('claude/sonnet:latest')).toBe('CLAUDE_SONNET_LATEST_API_KEY');
  });
});

describe('finding model servers on this computer', () => {
  it('reports the ones that answer, with their models, and skips the rest', async () => {
    const ollama = await serve(
      startLoopbackServer((_request, response) =>
        sendJson(response, 200, { models: [{ name: 'qwen3:8b', model: 'qwen3:8b' }] }),
      ),
    );
    const dead = await deadAddress();
    const found = await detectLocalServers(deps(), [
      { provider: 'ollama', baseUrl: ollama.url },
      { provider: 'lmstudio', baseUrl: `${dead}/v1` },
      { provider: 'lmstudio', baseUrl: 'http://192.0.2.1:1234/v1' },
    ]);
    expect(found).toEqual({
      servers: [
        {
          provider: 'ollama',
          service: 'Ollama',
          baseUrl: ollama.url,
          models: [{ id: 'qwen3:8b', label: 'qwen3:8b' }],
        },
      ],
    });
  });
});
