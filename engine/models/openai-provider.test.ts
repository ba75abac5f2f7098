import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import { sendJson } from './test-support/loopback-server';
import {
  callError,
  modelEntry as entry,
  testDeps,
  useLoopbackServers,
} from './test-support/provider-test-kit';
import type { ModelRequest, ToolDefinition } from './types';

const serve = useLoopbackServers();

const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const completion = (message: Record<string, unknown>, finish_reason = 'stop') => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason }],
  usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
});

describe('OpenAI chat completions', () => {
  it('sends the conversation, tools, temperature and max tokens, and reads text, tool calls and usage', async () => {
    const server = await serve((_request, response) =>
      sendJson(
        response,
        200,
        completion(
          {
            content: 'Checking.',
            tool_calls: [
              {
                id: 'call_a',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
              },
              {
                id: 'call_b',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city": Osl' },
              },
            ],
          },
          'tool_calls',
        ),
      ),
    );
    const provider = createProvider(
      entry('openai', {
        base_url: `${server.url}/v1`,
        api_key_secret: 'openai',
        headers: { 'X-Title': 'LeMMing' },
      }),
      testDeps([], { resolveSecret: (name) => (name === 'openai' ? 'sk-test-123' : undefined) }),
    );

    const response = await provider.complete({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      tools: [weatherTool],
      temperature: 0.2,
      maxTokens: 300,
    });

    expect(provider.nativeTools).toBe(true);
    const [received] = server.received;
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe('Bearer sk-test-123');
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['x-title']).toBe('LeMMing');
    expect(received?.json).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Oslo?' },
      ],
      temperature: 0.2,
      max_completion_tokens: 300,
      tools: [{ type: 'function', function: weatherTool }],
    });

    expect(response).toMatchObject({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' }, rawArguments: '{"city":"Oslo"}' },
        { id: 'call_b', name: 'get_weather', arguments: '{"city": Osl', rawArguments: '{"city": Osl' },
      ],
      usage: { inputTokens: 42, outputTokens: 7 },
      finishReason: 'tool_calls',
    });
    expect(response.raw).toMatchObject({ id: 'chatcmpl-1' });
    expect(response.latencyMs).toBeGreaterThan(0);
  });

  it('feeds tool results back as tool messages after the assistant tool_calls', async () => {
    const server = await serve((_request, response, index) =>
      sendJson(
        response,
        200,
        index === 0
          ? completion(
              {
                content: null,
                tool_calls: [
                  {
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
                  },
                ],
              },
              'tool_calls',
            )
          : completion({ content: 'It is 4°C in Oslo.' }),
      ),
    );
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps([]));
    const request: ModelRequest = {
      model: 'local-model',
      messages: [{ role: 'user', content: 'Weather in Oslo?' }],
      tools: [weatherTool],
      maxTokens: 50,
    };

    const first = await provider.complete(request);
    expect(first.text).toBe('');
    const second = await provider.complete({
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'call_1', content: '{"success":true,"output":"4°C"}' },
      ],
    });

    expect(second.text).toBe('It is 4°C in Oslo.');
    expect(server.received[1]?.path).toBe('/chat/completions');
    expect(server.received[1]?.headers.authorization).toBeUndefined();
    expect(server.received[1]?.json).toMatchObject({
      model: 'local-model',
      max_tokens: 50,
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"success":true,"output":"4°C"}' },
      ],
    });
  });

  it('waits as long as Retry-After says after a 429, then succeeds', async () => {
    const server = await serve((_request, response, index) =>
      index === 0
        ? sendJson(
            response,
            429,
            { error: { message: 'Rate limit reached', type: 'requests' } },
            { 'retry-after': '2' },
          )
        : sendJson(response, 200, completion({ content: 'ok' })),
    );
    const sleeps: number[] = [];
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps(sleeps));

    const response = await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

    expect(response.text).toBe('ok');
    expect(server.received).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('gives up on a Retry-After that would overrun the deadline instead of waiting for it', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 429, { error: { message: 'slow down' } }, { 'retry-after': '20' }),
    );
    const sleeps: number[] = [];
    const provider = createProvider(
      entry('openai-compatible', { base_url: server.url, timeout_ms: 5000 }),
      testDeps(sleeps),
    );

    const error = await callError(
      provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(error).toMatchObject({ kind: 'rate_limit', status: 429, retryable: true, attempts: 1 });
    expect(error.message).toContain('slow down');
    expect(sleeps).toEqual([]);
  });

  it('retries 500s with growing backoff and reports the last one when retries run out', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 500, { error: { message: 'The server had an error' } }),
    );
    const sleeps: number[] = [];
    const provider = createProvider(
      entry('openai-compatible', { base_url: server.url, max_retries: 2 }),
      testDeps(sleeps),
    );

    const error = await callError(
      provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(server.received).toHaveLength(3);
    expect(sleeps).toEqual([250, 500]);
    expect(error).toMatchObject({ kind: 'server', status: 500, retryable: true, attempts: 3 });
    expect(error.message).toBe(
      'OpenAI-compatible server returned HTTP 500 after 3 attempts: The server had an error',
    );
  });

  it('does not retry other client errors', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 400, { error: { message: "Invalid value for 'model'" } }),
    );
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps([]));

    const error = await callError(
      provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(server.received).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'bad_request', status: 400, retryable: false, attempts: 1 });
    expect(error.message).toContain("Invalid value for 'model'");
  });

  it('retries when the server drops the connection', async () => {
    const server = await serve((_request, response, index) => {
      if (index === 0) response.socket?.destroy();
      else sendJson(response, 200, completion({ content: 'recovered' }));
    });
    const sleeps: number[] = [];
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps(sleeps));

    const response = await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });

    expect(response.text).toBe('recovered');
    expect(server.received).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('times out when the server never answers', async () => {
    const server = await serve(() => undefined);
    const provider = createProvider(
      entry('openai-compatible', { base_url: server.url, timeout_ms: 300 }),
      testDeps([]),
    );

    const started = performance.now();
    const error = await callError(
      provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(error).toMatchObject({ kind: 'timeout', retryable: true, attempts: 1 });
    expect(error.message).toBe('OpenAI-compatible server did not answer within 300 ms (timeout_ms)');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('stops when the caller cancels mid-request', async () => {
    const server = await serve(() => undefined);
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps([]));
    const controller = new AbortController();

    const pending = callError(
      provider.complete({
        model: 'm',
        messages: [{ role: 'user', content: 'hi' }],
        signal: controller.signal,
      }),
    );
    await server.waitForRequests(1);
    controller.abort();
    const error = await pending;

    expect(error).toMatchObject({ kind: 'cancelled', retryable: false, attempts: 1 });
  });

  it('leaves no listener on a long-lived signal shared by many calls', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, completion({ content: 'ok' })),
    );
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps([]));
    const runSignal = new AbortController().signal;

    for (let call = 0; call < 5; call += 1) {
      await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }], signal: runSignal });
    }

    expect(getEventListeners(runSignal, 'abort')).toHaveLength(0);
  });

  it('reports a body that is not JSON, or JSON without a message, as a bad response', async () => {
    const server = await serve((_request, response, index) => {
      if (index === 0) {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>502 Bad Gateway</html>');
      } else {
        sendJson(response, 200, { choices: [] });
      }
    });
    const provider = createProvider(entry('openai-compatible', { base_url: server.url }), testDeps([]));
    const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

    const notJson = await callError(provider.complete(request));
    const noChoice = await callError(provider.complete(request));

    expect(notJson).toMatchObject({ kind: 'bad_response', status: 200, retryable: false });
    expect(notJson.message).toBe(
      'OpenAI-compatible server answered with something that is not JSON: <html>502 Bad Gateway</html>',
    );
    expect(noChoice).toMatchObject({ kind: 'bad_response', retryable: false });
    expect(noChoice.message).toMatch(
      /^OpenAI-compatible server answered without a usable choices\[0\]\.message \(choices: /,
    );
  });

  it('treats an error object in a 200 answer as a bad response carrying its message', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { error: { message: 'No endpoints found for this model', code: 404 } }),
    );
    const provider = createProvider(entry('openrouter', { base_url: server.url }), testDeps([]));

    const error = await callError(
      provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(error.kind).toBe('bad_response');
    expect(error.message).toBe('OpenRouter answered with an error: No endpoints found for this model');
  });

  it('reports a server that is not running as a network error', async () => {
    const server = await serve(() => undefined);
    const closedUrl = server.url;
    await server.close();
    const provider = createProvider(entry('lmstudio', { base_url: `${closedUrl}/v1` }), testDeps([]));

    const error = await callError(
      provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(error).toMatchObject({ kind: 'connection_refused', retryable: true, attempts: 1 });
    expect(error.message).toContain(`cannot reach LM Studio at ${closedUrl}/v1/chat/completions`);
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('API keys for OpenAI-compatible providers', () => {
  it('refuses to call OpenAI without a key and says where to put one', async () => {
    const provider = createProvider(entry('openai', {}), testDeps([]));
    const error = await callError(provider.complete({ model: 'm', messages: [] }));
    expect(error).toMatchObject({ kind: 'missing_key', retryable: false, attempts: 0 });
    expect(error.message).toBe(
      'model "test-model" (OpenAI) needs an API key: paste it in Settings, under Models and providers (from the command line: store it as a secret and name it in provider_config.api_key_secret, or set the OPENAI_API_KEY environment variable)',
    );
  });

  it('names a configured secret or variable that is missing', async () => {
    const fromSecret = createProvider(entry('openrouter', { api_key_secret: 'router' }), testDeps([]));
    const fromEnv = createProvider(entry('openrouter', { api_key_env: 'MY_ROUTER_KEY' }), testDeps([]));
    expect((await callError(fromSecret.complete({ model: 'm', messages: [] }))).message).toBe(
      'model "test-model" (OpenRouter) uses the secret "router", which is not set: add it in Settings → API keys',
    );
    expect((await callError(fromEnv.complete({ model: 'm', messages: [] }))).message).toBe(
      'model "test-model" (OpenRouter) reads its API key from the environment variable MY_ROUTER_KEY, which is not set',
    );
  });

  it('uses the conventional variable, and the named variable before it', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, completion({ content: 'ok' })),
    );
    const env = { OPENROUTER_API_KEY: 'sk-or-conventional', TEAM_KEY: 'sk-or-team' };
    await createProvider(entry('openrouter', { base_url: server.url }), testDeps([], { env })).complete({
      model: 'm',
      messages: [],
    });
    await createProvider(
      entry('openrouter', { base_url: server.url, api_key_env: 'TEAM_KEY' }),
      testDeps([], { env }),
    ).complete({
      model: 'm',
      messages: [],
    });
    expect(server.received.map((request) => request.headers.authorization)).toEqual([
      'Bearer sk-or-conventional',
      'Bearer sk-or-team',
    ]);
  });

  it('needs no key for a server on this computer', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, completion({ content: 'local' })),
    );
    const provider = createProvider(entry('openai', { base_url: server.url }), testDeps([]));
    expect((await provider.complete({ model: 'm', messages: [] })).text).toBe('local');
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it('asks for a base_url when a generic OpenAI-compatible entry has none', async () => {
    const provider = createProvider(entry('openai-compatible', {}), testDeps([]));
    const error = await callError(provider.complete({ model: 'm', messages: [] }));
    expect(error.kind).toBe('model_setup');
    expect(error.message).toContain('needs provider_config.base_url');
  });
});
