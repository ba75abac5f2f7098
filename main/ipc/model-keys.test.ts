import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelList, RunReadiness } from '../../engine/api';
import { MODELS_FILE } from '../../engine/models/models-file';
import { EXAMPLE_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

const OPENAI_KEY = 'sk-pasted-openai-5d1e0c9b7a';

async function openExampleOrg() {
  const harness = await harnesses.create();
  const org = harness.copy(EXAMPLE_ORG);
  valueOf(await harness.dispatch('org.open', { path: org }));
  await harness.trustOpenOrg();
  return { harness, org };
}

describe('a key pasted on a saved model (LeMMing’s example org)', () => {
  it('serves every model of that provider, and its agents are no longer blocked', async () => {
    const { harness, org } = await openExampleOrg();
    const modelsBefore = readFileSync(join(org, MODELS_FILE), 'utf8');
    const before = valueOf<RunReadiness>(await harness.dispatch('run.readiness', {}));
    expect(before.blocked.map((note) => note.reason)).toContain(
      'its model gpt-4.1-mini (OpenAI) has no API key yet: paste one in Settings, under Models and providers',
    );
    expect(before.blocked.every((note) => !/provider_config|api_key_secret/.test(note.reason))).toBe(true);

    const list = valueOf<ModelList>(
      await harness.dispatch('models.setKey', { model: 'gpt-4o', apiKey: OPENAI_KEY }),
    );
    const openai = list.models.filter((model) => model.provider === 'openai');
    expect(openai.length).toBeGreaterThan(1);
    for (const model of openai) expect(model).toMatchObject({ keySecret: 'OPENAI_API_KEY', apiKeySet: true });
    for (const model of list.models.filter((model) => model.provider === 'anthropic'))
      expect(model).toMatchObject({ keySecret: 'ANTHROPIC_API_KEY', apiKeySet: false });

    // The run bar and the graph ask again at once: the agents' readiness changed.
    expect(harness.events).toContainEqual({ name: 'agents.changed', payload: { names: [] } });
    const after = valueOf<RunReadiness>(await harness.dispatch('run.readiness', {}));
    expect(after.blocked.filter((note) => /\(OpenAI\)/.test(note.reason))).toEqual([]);
    // LeMMing's files are as they were: the key is in the secret store, not in the org.
    expect(readFileSync(join(org, MODELS_FILE), 'utf8')).toBe(modelsBefore);
    expect(JSON.stringify(harness.responses.map((answer) => answer.response))).not.toContain(
      OPENAI_KEY.slice(3),
    );
  });

  it('says a model that calls no server has no key to paste', async () => {
    const { harness } = await openExampleOrg();
    expect(await harness.dispatch('models.setKey', { model: 'cli-echo', apiKey: 'sk-x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_change', issues: [{ path: 'apiKey' }] },
    });
  });
});
