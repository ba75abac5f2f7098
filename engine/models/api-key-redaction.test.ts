import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import type { ModelCallError } from './model-call-error';
import { sendJson, type LoopbackHandler } from './test-support/loopback-server';
import { callError, modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';

const serve = useLoopbackServers();

const API_KEY = 'sk-live-4f9a1c7e2b8d6053aa91c0ffee';

/** Whatever credential header the provider sent, the way a careless server would echo it. */
function echoedKey(headers: IncomingHttpHeaders): string {
  return String(headers.authorization ?? headers['x-api-key'] ?? '');
}

/** Error paths, each answered by a server that puts the key it received into its answer. */
const ECHOING_FAILURES: Record<string, LoopbackHandler> = {
  unauthorized: (request, response) =>
    sendJson(response, 401, {
      error: { message: `Incorrect API key provided: ${echoedKey(request.headers)}` },
    }),
  'server errors until retries run out': (request, response) =>
    sendJson(response, 500, { error: `boom for ${echoedKey(request.headers)}` }),
  'rate limited': (request, response) =>
    sendJson(response, 429, { message: `slow down ${echoedKey(request.headers)}` }, { 'retry-after': '0' }),
  'long plain-text error cut short right inside the key': (request, response) => {
    response.writeHead(502, { 'content-type': 'text/plain' });
    response.end(`${'x'.repeat(270)} ${echoedKey(request.headers)} ${'y'.repeat(100)}`);
  },
  'not JSON': (request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<html>proxy error for ${echoedKey(request.headers)}</html>`);
  },
  'error object in a 200 answer': (request, response) =>
    sendJson(response, 200, { error: { message: `bad key ${echoedKey(request.headers)}` } }),
  'unexpected shape': (request, response) =>
    sendJson(response, 200, {
      choices: echoedKey(request.headers),
      content: echoedKey(request.headers),
      message: 7,
    }),
};

const PROVIDERS = ['openai', 'anthropic', 'ollama'];

function expectNoKey(error: ModelCallError): void {
  expect(error.message).not.toContain(API_KEY);
  expect(error.message).not.toContain(API_KEY.slice(0, 12));
  expect(error.stack ?? '').not.toContain(API_KEY);
}

describe('API keys never appear in error messages', () => {
  for (const provider of PROVIDERS) {
    for (const [path, handler] of Object.entries(ECHOING_FAILURES)) {
      it(`${provider}: ${path}`, async () => {
        const server = await serve(handler);
        const model = createProvider(
          modelEntry(provider, { base_url: server.url, api_key_secret: 'key', max_retries: 1 }),
          testDeps([], { resolveSecret: () => API_KEY }),
        );

        const error = await callError(
          model.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
        );

        expect(echoedKey(server.received[0]?.headers ?? {})).toContain(API_KEY);
        expectNoKey(error);
      });
    }

    it(`${provider}: timeout, cancellation and a refused connection`, async () => {
      const silent = await serve(() => undefined);
      const deps = testDeps([], { resolveSecret: () => API_KEY });
      const timingOut = createProvider(
        modelEntry(provider, { base_url: silent.url, api_key_secret: 'key', timeout_ms: 200 }),
        deps,
      );
      const cancellable = createProvider(
        modelEntry(provider, { base_url: silent.url, api_key_secret: 'key' }),
        deps,
      );
      const closed = await serve(() => undefined);
      await closed.close();
      const refused = createProvider(
        modelEntry(provider, { base_url: closed.url, api_key_secret: 'key', max_retries: 0 }),
        deps,
      );

      const controller = new AbortController();
      const cancelled = callError(
        cancellable.complete({ model: 'm', messages: [], signal: controller.signal }),
      );
      setTimeout(() => controller.abort(), 50);
      const errors = [
        await callError(timingOut.complete({ model: 'm', messages: [] })),
        await cancelled,
        await callError(refused.complete({ model: 'm', messages: [] })),
      ];

      expect(errors.map((error) => error.kind)).toEqual(['timeout', 'cancelled', 'connection_refused']);
      errors.forEach(expectNoKey);
    });
  }

  it('keeps the key out of the answer body the provider returns', async () => {
    const server = await serve((request, response) =>
      sendJson(response, 200, {
        choices: [
          {
            message: { role: 'assistant', content: `echo: ${echoedKey(request.headers)}` },
            finish_reason: 'stop',
          },
        ],
      }),
    );
    const model = createProvider(
      modelEntry('openai', { base_url: server.url, api_key_secret: 'key' }),
      testDeps([], { resolveSecret: () => API_KEY }),
    );
    const response = await model.complete({ model: 'm', messages: [] });
    expect(response.text).toBe('echo: Bearer [redacted]');
    expect(JSON.stringify(response.raw)).not.toContain(API_KEY);
  });
});
