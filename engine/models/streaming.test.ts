import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ProgressDelta } from '../api/model-event-schemas';
import { createProvider } from './create-provider';
import { sendJson } from './test-support/loopback-server';
import { callError, modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';

const serve = useLoopbackServers();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes each piece, flushed, `gapMs` apart: what a model server does while it generates. */
async function stream(
  response: ServerResponse,
  contentType: string,
  pieces: string[],
  gapMs = 0,
): Promise<void> {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  for (const piece of pieces) {
    if (response.destroyed) return;
    response.write(piece);
    if (gapMs) await sleep(gapMs);
  }
  response.end();
}
const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

const openAiChunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason }],
});

async function follow(provider: ReturnType<typeof createProvider>, extra: Record<string, unknown> = {}) {
  const deltas: ProgressDelta[] = [];
  const response = await provider.complete({
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    onProgress: (delta) => deltas.push(delta),
    ...extra,
  });
  return {
    response,
    deltas,
    text: deltas.flatMap((delta) => (delta.type === 'text' ? [delta.text] : [])).join(''),
  };
}

describe('OpenAI-compatible streaming', () => {
  it('asks for stream with include_usage, reports pieces, and assembles text, tool calls and usage', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse(openAiChunk({ role: 'assistant', content: '' })),
        sse(openAiChunk({ content: 'Hel' })),
        // A chunk split across writes, and a CRLF line end.
        'data: {"choices":[{"index":0,"delta":{"content":"lo"},',
        '"finish_reason":null}]}\r\n\r\n',
        sse(
          openAiChunk({
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'file_read', arguments: '' } },
            ],
          }),
        ),
        sse(openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] })),
        sse(openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '"a.md"}' } }] })),
        sse(openAiChunk({}, 'tool_calls')),
        ': keep-alive comment\n\n',
        sse({
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          choices: [],
          usage: { prompt_tokens: 12, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 8 } },
        }),
        sse('[DONE]'),
      ]),
    );
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    const { response, deltas, text } = await follow(provider);

    expect(server.received[0]?.json).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(server.received[0]?.headers.accept).toBe('text/event-stream');
    expect(text).toBe('Hello');
    expect(deltas.filter((delta) => delta.type === 'tool_call')).toEqual([
      { type: 'tool_call', index: 0, name: 'file_read' },
      { type: 'tool_call', index: 0, arguments: '{"path":' },
      { type: 'tool_call', index: 0, arguments: '"a.md"}' },
    ]);
    expect(response).toMatchObject({
      text: 'Hello',
      toolCalls: [
        { id: 'call_1', name: 'file_read', arguments: { path: 'a.md' }, rawArguments: '{"path":"a.md"}' },
      ],
      usage: { inputTokens: 12, outputTokens: 4, cachedInputTokens: 8 },
      finishReason: 'tool_calls',
      stop: 'tool_calls',
    });
  });

  it('does not stream when models.json says "stream": false, or when nobody follows the answer', async () => {
    const answer = {
      choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }],
    };
    const server = await serve((_request, response) => sendJson(response, 200, answer));
    const off = createProvider(
      { ...modelEntry('openai-compatible', { base_url: `${server.url}/v1` }), stream: false },
      testDeps(),
    );
    const { response, deltas } = await follow(off);
    expect(response.text).toBe('whole');
    expect(deltas).toEqual([]);
    const unfollowed = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    await unfollowed.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    for (const request of server.received) expect(request.json).not.toHaveProperty('stream');
  });

  it('reports a refusal streamed in pieces as a refusal', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse(openAiChunk({ refusal: 'I cannot ' })),
        sse(openAiChunk({ refusal: 'do that.' })),
        sse(openAiChunk({}, 'stop')),
        sse('[DONE]'),
      ]),
    );
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    expect((await follow(provider)).response).toMatchObject({ stop: 'refusal', text: 'I cannot do that.' });
  });

  it('turns an error sent mid-stream into a bad response carrying its message', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse(openAiChunk({ content: 'a' })),
        sse({ error: { message: 'overloaded, try later' } }),
      ]),
    );
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    const error = await callError(follow(provider));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('overloaded, try later');
  });

  it('stops the HTTP request within 200 ms of a cancel, mid-stream', async () => {
    let closedAt = 0;
    const server = await serve(async (_request, response) => {
      response.on('close', () => (closedAt = performance.now()));
      await stream(
        response,
        'text/event-stream',
        Array.from({ length: 200 }, (_, index) => sse(openAiChunk({ content: `w${index} ` }))),
        20,
      );
    });
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    const abort = new AbortController();
    let pieces = 0;
    const call = provider.complete({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      signal: abort.signal,
      onProgress: () => {
        pieces += 1;
        if (pieces === 10) abort.abort();
      },
    });
    const error = await callError(call);
    const abortedAt = performance.now();
    expect(error.kind).toBe('cancelled');
    await sleep(50);
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - abortedAt).toBeLessThan(200);
    expect(pieces).toBeLessThan(15);
  });
});

describe('how long a streamed answer may take', () => {
  it('as long as pieces keep coming: timeout_ms is the longest silence, not the whole answer', async () => {
    const server = await serve((_request, response) =>
      stream(
        response,
        'text/event-stream',
        [
          ...Array.from({ length: 12 }, (_, index) => sse(openAiChunk({ content: `${index} ` }))),
          sse(openAiChunk({}, 'stop')),
          sse('[DONE]'),
        ],
        50,
      ),
    );
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1`, timeout_ms: 250 }),
      testDeps(),
    );
    const { response } = await follow(provider);
    expect(response.text).toBe('0 1 2 3 4 5 6 7 8 9 10 11 ');
  });

  it('a stream that falls silent for longer is a timeout', async () => {
    const server = await serve(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(sse(openAiChunk({ content: 'start ' })));
      await sleep(600);
      response.end(sse('[DONE]'));
    });
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1`, timeout_ms: 200, max_retries: 0 }),
      testDeps(),
    );
    const error = await callError(follow(provider));
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('nothing came for 200 ms');
  });

  it('a server that ignores stream and answers JSON is read as JSON', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, {
        choices: [{ index: 0, message: { role: 'assistant', content: 'whole' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      }),
    );
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    const { response, deltas } = await follow(provider);
    expect(server.received[0]?.json).toMatchObject({ stream: true });
    expect(response).toMatchObject({ text: 'whole', usage: { inputTokens: 3, outputTokens: 1 } });
    expect(deltas).toEqual([]);
  });
});

describe('Anthropic streaming', () => {
  it('reads message_start, block deltas, message_delta and usage, pings and all', async () => {
    const events = [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 20, cache_read_input_tokens: 100, output_tokens: 1 },
          },
        },
        'message_start',
      ),
      sse(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
      sse({ type: 'ping' }, 'ping'),
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Reading ' } },
        'content_block_delta',
      ),
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'it.' } },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse(
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'file_read', input: {} },
        },
        'content_block_start',
      ),
      sse(
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '{"path": "a' },
        },
        'content_block_delta',
      ),
      sse(
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '.md"}' } },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 30 },
        },
        'message_delta',
      ),
      sse({ type: 'message_stop' }, 'message_stop'),
    ];
    const server = await serve((_request, response) => stream(response, 'text/event-stream', events));
    const provider = createProvider(
      modelEntry('anthropic', { base_url: server.url }),
      testDeps([], { env: { ANTHROPIC_API_KEY: 'sk-ant-stream' } }),
    );
    const { response, deltas, text } = await follow(provider);

    expect(server.received[0]?.json).toMatchObject({ stream: true });
    expect(server.received[0]?.json).not.toHaveProperty('stream_options');
    expect(text).toBe('Reading it.');
    expect(deltas.filter((delta) => delta.type === 'tool_call')).toHaveLength(3);
    expect(response).toMatchObject({
      text: 'Reading it.',
      toolCalls: [{ id: 'toolu_1', name: 'file_read', arguments: { path: 'a.md' } }],
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100 },
      stop: 'tool_calls',
    });
  });

  it('turns an error event into an error carrying its message', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
      ]),
    );
    const provider = createProvider(
      modelEntry('anthropic', { base_url: server.url }),
      testDeps([], { env: { ANTHROPIC_API_KEY: 'sk-ant-stream' } }),
    );
    expect((await callError(follow(provider))).message).toContain('Overloaded');
  });
});

describe('Ollama streaming', () => {
  it('reads newline-delimited JSON up to done, with counts and tool calls', async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const server = await serve((_request, response) =>
      stream(response, 'application/x-ndjson', [
        line({ model: 'm', message: { role: 'assistant', content: 'Hi ' }, done: false }),
        line({ model: 'm', message: { role: 'assistant', content: 'there' }, done: false }),
        line({
          model: 'm',
          message: {
            role: 'assistant',
            content: '',
            tool_calls: [{ function: { name: 'file_list', arguments: { path: '.' } } }],
          },
          done: false,
        }),
        line({
          model: 'm',
          message: { role: 'assistant', content: '' },
          done: true,
          done_reason: 'stop',
          prompt_eval_count: 30,
          eval_count: 9,
        }),
      ]),
    );
    const provider = createProvider(modelEntry('ollama', { base_url: server.url }), testDeps());
    const { response, text, deltas } = await follow(provider);
    expect(server.received[0]?.json).toMatchObject({ stream: true });
    expect(text).toBe('Hi there');
    expect(deltas).toContainEqual({ type: 'tool_call', index: 0, name: 'file_list' });
    expect(response).toMatchObject({
      text: 'Hi there',
      toolCalls: [{ name: 'file_list', arguments: { path: '.' } }],
      usage: { inputTokens: 30, outputTokens: 9 },
      stop: 'tool_calls',
    });
  });
});

describe('a streamed answer is whole or clearly failed', () => {
  const openAi = (url: string) =>
    createProvider(modelEntry('openai-compatible', { base_url: `${url}/v1`, max_retries: 1 }), testDeps());
  const anthropic = (url: string) =>
    createProvider(modelEntry('anthropic', { base_url: url, max_retries: 1 }), testDeps());
  const ollama = (url: string) =>
    createProvider(modelEntry('ollama', { base_url: url, max_retries: 1 }), testDeps());

  it('takes a tool name repeated in a later piece as the same name', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse(
          openAiChunk({
            tool_calls: [{ index: 0, id: 'c1', function: { name: 'get_weather', arguments: '' } }],
          }),
        ),
        sse(
          openAiChunk({
            tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: '{"city":' } }],
          }),
        ),
        sse(openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }, 'tool_calls')),
        sse('[DONE]'),
      ]),
    );
    const { response } = await follow(openAi(server.url));
    expect(response.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_weather', arguments: { city: 'Paris' } }),
    ]);
  });

  it.each([
    ['OpenAI without a finish reason or [DONE]', openAi, [sse(openAiChunk({ content: 'Hello, wor' }))]],
    [
      'Anthropic cut after a text delta',
      anthropic,
      [
        sse({ type: 'message_start', message: { usage: { input_tokens: 1 } } }, 'message_start'),
        sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
        sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello, wor' } }),
      ],
    ],
    ['Ollama without its done line', ollama, [`${JSON.stringify({ message: { content: 'Hello, wor' } })}\n`]],
  ] as const)(
    'a stream that ends before its end marker fails and is tried again (%s)',
    async (_name, make, pieces) => {
      const server = await serve((_request, response) =>
        stream(response, make === ollama ? 'application/x-ndjson' : 'text/event-stream', [...pieces]),
      );
      const error = await callError(follow(make(server.url)));
      expect(error.message).toContain('the answer may be cut off');
      expect(error.retryable).toBe(true);
      expect(server.received).toHaveLength(2);
    },
  );

  it('an `event: error` is an error carrying its message', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse(openAiChunk({ content: 'Hel' })),
        sse({ message: 'upstream went away', code: 502 }, 'error'),
      ]),
    );
    const error = await callError(follow(openAi(server.url)));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('upstream went away');
  });

  it('a data line that is not JSON is an error, not a piece dropped', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse(openAiChunk({ content: 'Hello' })),
        'data: {"choices": [{"delta": {"content": " wor\n\n',
        sse(openAiChunk({ content: 'ld' }, 'stop')),
        sse('[DONE]'),
      ]),
    );
    const error = await callError(follow(openAi(server.url)));
    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('not JSON');
    expect(server.received).toHaveLength(1);
  });

  it('an Ollama line that is not JSON is skipped, as its official client does, with a warning that says so', async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const server = await serve((_request, response) =>
      stream(response, 'application/x-ndjson', [
        line({ message: { content: 'Hello' } }),
        '{"message": {"content": " wor\n',
        line({ message: { content: ' world' } }),
        line({ message: { content: '' }, done: true, done_reason: 'stop' }),
      ]),
    );
    const { response, text } = await follow(ollama(server.url));
    expect(response.text).toBe('Hello world');
    expect(text).toBe('Hello world');
    expect(response.warnings).toEqual([
      'Ollama sent a line of its answer that is not JSON; it was skipped, as Ollama\'s own client skips it: {"message": {"content": " wor',
    ]);
    expect(server.received).toHaveLength(1);
  });

  it('a stream that broke off is declared void as soon as the call is tried again, whatever the next attempt answers', async () => {
    const server = await serve((_request, response, index) =>
      index === 0
        ? stream(response, 'text/event-stream', [sse(openAiChunk({ content: 'Broken' }))])
        : sendJson(response, 200, {
            choices: [{ index: 0, message: { role: 'assistant', content: 'Whole' }, finish_reason: 'stop' }],
          }),
    );
    const { response, deltas } = await follow(
      createProvider(
        modelEntry('openai-compatible', { base_url: `${server.url}/v1`, max_retries: 1 }),
        testDeps(),
      ),
    );
    expect(response.text).toBe('Whole');
    expect(deltas).toEqual([{ type: 'text', text: 'Broken' }, { type: 'restart' }]);
  });

  it('keeps an Anthropic tool input that came whole in content_block_start', async () => {
    const server = await serve((_request, response) =>
      stream(response, 'text/event-stream', [
        sse({ type: 'message_start', message: { usage: { input_tokens: 1 } } }),
        sse({
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Paris' } },
        }),
        sse({ type: 'content_block_stop', index: 0 }),
        sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 3 } }),
        sse({ type: 'message_stop' }),
      ]),
    );
    const { response } = await follow(anthropic(server.url));
    expect(response.toolCalls).toEqual([
      expect.objectContaining({ name: 'get_weather', arguments: { city: 'Paris' } }),
    ]);
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['bare CR', '\r'],
  ])('reads lines ended by %s, even when a chunk ends between CR and LF', async (_name, end) => {
    const body = [
      `data: ${JSON.stringify(openAiChunk({ content: 'Hello' }))}${end}${end}`,
      `data: ${JSON.stringify(openAiChunk({ content: ' world' }, 'stop'))}${end}${end}`,
      `data: [DONE]${end}${end}`,
    ].join('');
    const cuts = body.split('\r').flatMap((part, at) => (at === 0 ? [part] : ['\r', part]));
    const server = await serve((_request, response) => stream(response, 'text/event-stream', cuts));
    const { response } = await follow(openAi(server.url));
    expect(response.text).toBe('Hello world');
  });
});
