import { describe, expect, it } from 'vitest';
import { plainFailure } from '../api/failure-words';
import { createProvider } from './create-provider';
import type { LoopbackHandler } from './test-support/loopback-server';
import { sendJson } from './test-support/loopback-server';
import { callError, modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';

const serve = useLoopbackServers();

/** One call to a real loopback server through the OpenAI-compatible provider, without retries. */
async function failedCall(handler: LoopbackHandler, config: { timeout_ms?: number } = {}) {
  const server = await serve(handler);
  const provider = createProvider(
    modelEntry('openai-compatible', { base_url: `${server.url}/v1`, max_retries: 0, ...config }),
    testDeps(),
  );
  const error = await callError(
    provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
  );
  return { error, words: plainFailure('llm_call_failed', error.failure) };
}

const answering =
  (status: number, message: string, headers: Record<string, string> = {}): LoopbackHandler =>
  (_request, response) =>
    sendJson(response, status, { error: { message } }, headers);

describe('a model call that fails keeps what failed as typed data', () => {
  it.each([
    [401, 'auth', false, 'the API key was refused'],
    [403, 'auth', false, 'the API key is not allowed to use this model'],
    [404, 'not_found', false, 'the model or the server address was not found'],
    [400, 'bad_request', false, 'it did not accept the request'],
    [500, 'server', true, 'the server had a problem'],
    [503, 'server', true, 'the server had a problem'],
  ] as const)('HTTP %i is %s (retryable: %s)', async (status, kind, retryable, words) => {
    const failed = await failedCall(answering(status, 'whatever the server says'));
    expect(failed.error.failure).toEqual({ kind, status, retryable });
    expect(failed.words).toBe(`The model could not be reached (the server answered ${status}: ${words}).`);
  });

  it('a 429 with retry-after is a rate limit worth retrying', async () => {
    const failed = await failedCall(answering(429, 'slow down', { 'retry-after': '2' }));
    expect(failed.error.failure).toEqual({ kind: 'rate_limit', status: 429, retryable: true });
    expect(failed.words).toBe(
      'The model could not be reached (the server answered 429: too many requests, or the account has no quota left).',
    );
  });

  it('a server that is not running is a refused connection', async () => {
    const server = await serve(() => undefined);
    await server.close();
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1`, max_retries: 0 }),
      testDeps(),
    );
    const error = await callError(provider.complete({ model: 'm', messages: [] }));
    expect(error.failure).toEqual({ kind: 'connection_refused', status: null, retryable: true });
    expect(plainFailure('llm_call_failed', error.failure)).toBe(
      'The model could not be reached: nothing answered at its server address. Check the address and your connection.',
    );
  });

  it('a server that never answers is a timeout', async () => {
    const failed = await failedCall(() => undefined, { timeout_ms: 200 });
    expect(failed.error.failure).toEqual({ kind: 'timeout', status: null, retryable: true });
    expect(failed.words).toBe('The model took too long to answer, so the call was given up.');
  });

  it('an answer that is not JSON is a bad response', async () => {
    const failed = await failedCall((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>a login page</html>');
    });
    expect(failed.error.failure).toEqual({ kind: 'bad_response', status: 200, retryable: false });
    expect(failed.words).toBe('The model’s server sent an answer that could not be read.');
  });

  it('a key the model needs and does not have is a missing key, with the model it belongs to', async () => {
    const provider = createProvider(modelEntry('openai', {}, 'gpt'), testDeps());
    const error = await callError(provider.complete({ model: 'm', messages: [] }));
    expect(error.failure).toEqual({
      kind: 'missing_key',
      status: null,
      retryable: false,
      model: 'gpt',
      service: 'OpenAI',
    });
    expect(plainFailure('llm_call_failed', error.failure)).toBe(
      'The model "gpt" (OpenAI) needs an API key: paste it in Settings, under Models and providers.',
    );
  });

  it('rewording a provider’s error (same status, other text) does not change the words shown', async () => {
    const before = await failedCall(answering(401, 'Incorrect API key provided: sk-****abcd.'));
    const after = await failedCall(answering(401, 'Your credentials are invalid; see the dashboard.'));
    expect(before.error.message).not.toBe(after.error.message);
    expect(after.error.failure).toEqual(before.error.failure);
    expect(after.words).toBe(before.words);
    // Even a message that reads like another failure is not read: the status the server sent decides.
    const misleading = await failedCall(
      answering(500, 'upstream: this org may not use the secret X; the model needs an API key; timed out'),
    );
    expect(misleading.words).toBe(
      'The model could not be reached (the server answered 500: the server had a problem).',
    );
  });
});
