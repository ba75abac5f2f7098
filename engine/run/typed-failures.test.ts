import { describe, expect, it } from 'vitest';
import { plainFailure } from '../api/failure-words';
import { failureOfError } from '../api/older-failure';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import { envSecretStore } from '../secrets/env-secret-store';
import { engineWorld } from './test-support/engine-world';
import { resume } from './test-support/temp-org';

const world = engineWorld();

/** One tick of an org whose only agent calls a loopback model server that refuses the key with `text`. */
async function tickRefusedWith(text: string) {
  const server = world.serve(
    await startLoopbackServer((_request, response) => sendJson(response, 401, { error: { message: text } })),
  );
  const org = world.orgs.build({
    'lemming/config/models.json': {
      gpt: {
        provider: 'openai-compatible',
        model_name: 'm',
        provider_config: { base_url: `${server.url}/v1`, max_retries: 0 },
      },
    },
    'agents/writer/resume.json': resume('writer', { model: { key: 'gpt' } }),
  });
  const engine = await world.open(org, { secrets: envSecretStore({}) });
  await engine.runTick();
  const read = (kind: string) =>
    (
      engine.timeline.db
        .prepare('SELECT json FROM events WHERE kind = ? ORDER BY seq')
        .pluck()
        .all(kind) as string[]
    ).map((json) => JSON.parse(json) as Record<string, unknown>);
  const [error] = read('error') as [{ reason: string; message: string; failure?: unknown }];
  const [call] = read('model_call') as [{ error: { failure?: unknown } }];
  return { error, call, words: plainFailure(error.reason, failureOfError(error)) };
}

describe('a provider failure on the timeline', () => {
  it('is stored with its kind, status and retry decision, in the error event and the model call', async () => {
    const { error, call } = await tickRefusedWith('Incorrect API key provided.');
    const failure = { kind: 'auth', status: 401, retryable: false };
    expect(error).toMatchObject({ reason: 'llm_call_failed', failure });
    expect(error.message).toContain('Incorrect API key provided.');
    expect(call.error.failure).toEqual(failure);
  });

  it('is worded the same whatever the provider’s message says', async () => {
    const before = await tickRefusedWith('Incorrect API key provided.');
    const after = await tickRefusedWith(
      'Authentication failed: the project needs an API key with the chat scope.',
    );
    expect(after.error.message).not.toBe(before.error.message);
    expect(after.words).toBe(before.words);
    expect(after.words).toBe(
      'The model could not be reached (the server answered 401: the API key was refused).',
    );
  });
});
