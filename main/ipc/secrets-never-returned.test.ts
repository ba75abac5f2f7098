import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel } from '../../engine/api/contract';
import {
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
} from '../../engine/models/test-support/loopback-server';
import { DEMO_ORG, ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';
import { WEATHER_TOOL } from '../../engine/tools/test-support/weather-tool';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

const FIRST_KEY = 'sk-first-7Jq2ZpX9vLm4RtY8';
const SECOND_KEY = 'sk-second-Hn3Wc6Bd1Kf5Gs0A';
const WEATHER_KEY = 'wk-live-Qe4Ur8Ty2Io6Pa9S';

/**
 * A model server that echoes back the API key it was sent, in the model's reply and in an outbox
 * message: the worst case, where a secret comes back through the engine into the timeline.
 */
async function echoingModelServer(): Promise<LoopbackServer> {
  const server = await startLoopbackServer((request, response) => {
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    const reply = JSON.stringify({
      outbox_entries: [{ kind: 'message', payload: { text: `my key is ${key}` } }],
      notes: `used ${key}`,
    });
    sendJson(response, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10 },
    });
  });
  harnesses.serve(server);
  return server;
}

/** Calls every channel that reads something, the way the views would after a change. */
async function readEverything(harness: IpcHarness): Promise<void> {
  const reads: [Channel, unknown][] = [
    ['org.summary', {}],
    ['org.agents', {}],
    ['org.graph', {}],
    ['secrets.list', {}],
    ['models.list', {}],
    ['connectors.list', {}],
    ['tools.catalog', {}],
    ['tools.explain', { agent: 'echoer' }],
    ['settings.get', {}],
    ['settings.testConnection', { model: 'remote' }],
    ['credits.balances', {}],
    ['credits.history', { agent: 'echoer' }],
    ['timeline.facets', {}],
    ['run.state', {}],
  ];
  for (const [channel, input] of reads) await harness.dispatch(channel, input);
  for (const agent of ['echoer', 'manager', 'human']) await harness.dispatch('agent.get', { agent });
  const page = valueOf<{ rows: { seq: number }[] }>(await harness.dispatch('timeline.page', { limit: 1000 }));
  for (const row of page.rows) await harness.dispatch('timeline.get', { seq: row.seq });
  await harness.dispatch('timeline.page', { text: 'key' });
}

/** The person trusts the org as the trust screen shows it, ticking the secrets it may use. */
async function trustAsShown(harness: IpcHarness, secrets: string[]): Promise<void> {
  const { fingerprint } = valueOf<{ fingerprint: string }>(await harness.dispatch('trust.state', {}));
  valueOf(await harness.dispatch('trust.accept', { fingerprint, secrets }));
}

describe('secrets across IPC', () => {
  it('no value set, replaced or deleted through the app appears in any answer, even when a model echoes it', async () => {
    const server = await echoingModelServer();
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    mkdirSync(join(org, 'tools'));
    writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER_TOOL);
    valueOf(await harness.dispatch('org.open', { path: org }));
    // The weather tool came with the org: the person trusts it; the model and agent they add keep the trust.
    await harness.trustOpenOrg();
    valueOf(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'remote',
        patch: {
          provider: 'openai-compatible',
          model_name: 'echo-1',
          base_url: `${server.url}/v1`,
          api_key_secret: 'REMOTE_KEY',
        },
      }),
    );
    valueOf(
      await harness.dispatch('org.createAgent', {
        name: 'echoer',
        title: 'Echoer',
        model: 'remote',
        tools: ['fetch_weather'],
      }),
    );

    valueOf(await harness.dispatch('secrets.set', { name: 'REMOTE_KEY', value: FIRST_KEY }));
    await trustAsShown(harness, ['REMOTE_KEY']);
    // People paste keys where they should not: into instructions, into a message.
    valueOf(
      await harness.dispatch('agent.update', {
        agent: 'echoer',
        patch: { instructions: `Call the API with ${FIRST_KEY}.` },
      }),
    );
    await readEverything(harness);
    valueOf(await harness.dispatch('run.step', {}));
    await readEverything(harness);

    expect(valueOf(await harness.dispatch('secrets.set', { name: 'REMOTE_KEY', value: SECOND_KEY }))).toEqual(
      {
        name: 'REMOTE_KEY',
        isSet: true,
        existed: true,
      },
    );
    valueOf(
      await harness.dispatch('messages.send', { text: `The new key is ${SECOND_KEY}`, target: 'echoer' }),
    );
    valueOf(await harness.dispatch('run.step', {}));
    await readEverything(harness);

    const { connectors } = valueOf<{
      connectors: { id: string; secrets: { name: string; isSet: boolean }[] }[];
    }>(await harness.dispatch('connectors.list', {}));
    const weather = connectors.find((connector) => connector.id === 'composed:org:fetch_weather');
    expect(weather?.secrets).toEqual([expect.objectContaining({ name: 'WEATHER_KEY', isSet: false })]);
    expect(
      await harness.dispatch('connectors.setConfig', {
        connector: 'composed:org:fetch_weather',
        values: { WEATHER_KEY },
      }),
    ).toMatchObject({
      ok: true,
      value: { secrets: [{ name: 'WEATHER_KEY', isSet: true }], readiness: { ready: true } },
    });
    await readEverything(harness);

    valueOf(await harness.dispatch('secrets.delete', { name: 'REMOTE_KEY' }));
    await readEverything(harness);
    valueOf(
      await harness.dispatch('connectors.setConfig', {
        connector: 'composed:org:fetch_weather',
        values: { WEATHER_KEY: null },
      }),
    );
    await readEverything(harness);

    // The secrets really were used, and really came back: otherwise this test could not fail.
    const sentKeys = server.received.map((request) => request.headers.authorization);
    expect(sentKeys).toContain(`Bearer ${FIRST_KEY}`);
    expect(sentKeys).toContain(`Bearer ${SECOND_KEY}`);
    const everything = harness.responses.map((entry) => JSON.stringify(entry.response));
    expect(everything.some((text) => text.includes('my key is [redacted'))).toBe(true);

    expect(harness.responses.length).toBeGreaterThan(100);
    for (const [index, text] of everything.entries()) {
      for (const secret of [FIRST_KEY, SECOND_KEY, WEATHER_KEY]) {
        expect(
          text.includes(secret),
          `answer ${index} to ${String(harness.responses[index]!.channel)} holds a secret`,
        ).toBe(false);
      }
    }
  });

  it('a key given with a new model is stored as a secret, used, and never in an answer', async () => {
    const server = await echoingModelServer();
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    const input = { provider: 'openai-compatible', baseUrl: `${server.url}/v1`, apiKey: FIRST_KEY };
    valueOf(await harness.dispatch('models.probe', { ...input, modelName: 'echo-1' }));
    const list = valueOf<{
      models: { key: string; apiKeySecret: string | null; apiKeySet: boolean | null }[];
    }>(await harness.dispatch('models.add', { key: 'echo', modelName: 'echo-1', ...input }));
    // Kept for the server's account (its host), which every model of that server shares.
    const account = `HOST_${new URL(server.url).host.replace(/[^0-9A-Za-z]+/g, '_')}_API_KEY`;
    expect(list.models.find((model) => model.key === 'echo')).toMatchObject({
      apiKeySecret: account,
      apiKeySet: true,
    });
    expect(readFileSync(join(org, 'lemming/config/models.json'), 'utf8')).not.toContain(FIRST_KEY);
    valueOf(await harness.dispatch('org.createAgent', { name: 'echoer', title: 'Echoer', model: 'echo' }));
    // The key given with the model is granted to the org already: trusting it ticks nothing more.
    await trustAsShown(harness, []);
    valueOf(await harness.dispatch('run.step', {}));
    valueOf(
      await harness.dispatch('models.probe', {
        provider: 'openai-compatible',
        baseUrl: `${server.url}/v1`,
        existingModel: 'echo',
        modelName: 'echo-1',
      }),
    );
    await readEverything(harness);

    expect(server.received.map((request) => request.headers.authorization)).toEqual(
      Array(server.received.length).fill(`Bearer ${FIRST_KEY}`),
    );
    expect(server.received.length).toBeGreaterThanOrEqual(3);
    for (const [index, entry] of harness.responses.entries()) {
      expect(
        JSON.stringify(entry.response).includes(FIRST_KEY),
        `answer ${index} to ${String(entry.channel)} holds the key`,
      ).toBe(false);
    }
  });

  it('secrets.list gives names, dates and who needs them, and marks needed secrets that are not set', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: org }));
    valueOf(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'cloud',
        patch: { provider: 'openai', model_name: 'gpt-4o-mini', api_key_secret: 'OPENAI_KEY' },
      }),
    );
    valueOf(
      await harness.dispatch('secrets.set', { name: 'GITHUB_TOKEN', value: 'ghp_0123456789abcdefghij' }),
    );

    const listed = valueOf<{ secrets: unknown[]; store: unknown }>(
      await harness.dispatch('secrets.list', {}),
    );
    expect(listed.secrets).toEqual([
      {
        name: 'GITHUB_TOKEN',
        isSet: true,
        updatedAt: expect.any(String),
        source: 'file',
        usedBy: [],
        grantedToOrg: false,
      },
      {
        name: 'OPENAI_KEY',
        isSet: false,
        updatedAt: null,
        source: null,
        usedBy: ['model "cloud"'],
        grantedToOrg: false,
      },
    ]);
    valueOf(await harness.dispatch('trust.grant', { kind: 'secret', name: 'GITHUB_TOKEN', granted: true }));
    expect(
      valueOf<{ secrets: { name: string; grantedToOrg: boolean | null }[] }>(
        await harness.dispatch('secrets.list', {}),
      ).secrets.map(({ name, grantedToOrg }) => [name, grantedToOrg]),
    ).toEqual([
      ['GITHUB_TOKEN', true],
      ['OPENAI_KEY', false],
    ]);
    valueOf(await harness.dispatch('org.close', {}));
    expect(
      valueOf<{ secrets: { grantedToOrg: boolean | null }[] }>(await harness.dispatch('secrets.list', {}))
        .secrets,
    ).toEqual([expect.objectContaining({ name: 'GITHUB_TOKEN', grantedToOrg: null })]);
    valueOf(await harness.dispatch('org.open', { path: org }));
    expect(listed.store).toEqual({ canStore: true, location: expect.stringContaining('secrets.json') });
    expect(await harness.dispatch('secrets.delete', { name: 'GITHUB_TOKEN' })).toEqual({
      ok: true,
      value: { name: 'GITHUB_TOKEN', isSet: false, existed: true },
    });
  });
});
