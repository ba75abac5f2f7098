import Anthropic from '@anthropic-ai/sdk';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { describe, expect, it, vi } from 'vitest';
import { createProvider } from './create-provider';
import { modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';

/**
 * The same bytes, served from loopback, read by the official client and by our provider: both must end
 * with the same text, the same tool calls and the same outcome. Where they differ, ours is the one to fix.
 */

type Api = 'openai' | 'anthropic' | 'ollama';

interface Fixture {
  name: string;
  api: Api;
  /** The body as the server writes it, one write a piece. */
  pieces: Buffer[];
}

interface Outcome {
  ok: boolean;
  text: string;
  toolCalls: { name: string; arguments: unknown }[];
}

const serve = useLoopbackServers();

const json = (value: unknown) => JSON.stringify(value);
const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : json(data)}\n\n`;
const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta: { role: 'assistant', ...delta }, finish_reason }],
});
const usageChunk = {
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};
const call = (index: number, id: string | null, name: string | null, args: string) => ({
  tool_calls: [
    {
      index,
      ...(id ? { id, type: 'function' } : {}),
      function: { ...(name ? { name } : {}), arguments: args },
    },
  ],
});

/** The body as one piece, in pieces of `size` bytes (cutting lines and UTF-8 characters), or at each event. */
function whole(body: string): Buffer[] {
  return [Buffer.from(body)];
}
function cutEvery(size: number, body: string): Buffer[] {
  const bytes = Buffer.from(body);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}
const withLineEnds = (end: string, body: string) => body.replace(/\n/g, end);

const openAiText = (text: string) =>
  [
    sse(chunk({ role: 'assistant', content: '' })),
    ...[...text].map((character) => sse(chunk({ content: character }))),
    sse(chunk({}, 'stop')),
    sse('[DONE]'),
  ].join('');
const openAiTool = [
  sse(chunk({ role: 'assistant', content: null })),
  sse(chunk(call(0, 'call_1', 'get_weather', ''))),
  sse(chunk(call(0, null, null, '{"city":'))),
  sse(chunk(call(0, null, null, '"Paris"}'))),
  sse(chunk({}, 'tool_calls')),
  sse('[DONE]'),
].join('');
const openAiParallel = [
  sse(chunk({ role: 'assistant', content: null })),
  sse(chunk(call(0, 'call_1', 'get_weather', '{"city":'))),
  sse(chunk(call(1, 'call_2', 'get_time', '{"zone":'))),
  sse(chunk(call(0, null, null, '"Paris"}'))),
  sse(chunk(call(1, null, null, '"CET"}'))),
  sse(chunk({}, 'tool_calls')),
  sse(usageChunk),
  sse('[DONE]'),
].join('');
const unicode = 'Grüße, 世界! 👋🏽 ça va?';

const anthropicEvents = (blocks: string[], stopReason = 'end_turn', stop = true) =>
  [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    ...blocks,
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      'message_delta',
    ),
    ...(stop ? [sse({ type: 'message_stop' }, 'message_stop')] : []),
  ].join('');
const textBlock = (index: number, pieces: string[]) => [
  sse(
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    'content_block_start',
  ),
  ...pieces.map((text) =>
    sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, 'content_block_delta'),
  ),
  sse({ type: 'content_block_stop', index }, 'content_block_stop'),
];
const toolBlock = (index: number, id: string, name: string, jsonPieces: string[], input: unknown = {}) => [
  sse(
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input } },
    'content_block_start',
  ),
  ...jsonPieces.map((partial_json) =>
    sse(
      { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } },
      'content_block_delta',
    ),
  ),
  sse({ type: 'content_block_stop', index }, 'content_block_stop'),
];
const ping = sse({ type: 'ping' }, 'ping');

const ollamaLine = (value: unknown) => `${json(value)}\n`;
const ollamaPiece = (content: string) =>
  ollamaLine({
    model: 'm',
    created_at: '2026-01-01T00:00:00Z',
    message: { role: 'assistant', content },
    done: false,
  });
const ollamaDone = ollamaLine({
  model: 'm',
  created_at: '2026-01-01T00:00:00Z',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: 5,
  eval_count: 2,
});
const ollamaText = (text: string) => [...text].map(ollamaPiece).join('') + ollamaDone;
const ollamaTool = [
  ollamaLine({
    model: 'm',
    created_at: '2026-01-01T00:00:00Z',
    message: {
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
    },
    done: false,
  }),
  ollamaDone,
].join('');

const fixtures: Fixture[] = [
  // OpenAI-compatible chat completions
  { name: 'plain text', api: 'openai', pieces: whole(openAiText('Hello, world')) },
  { name: 'text cut every byte', api: 'openai', pieces: cutEvery(1, openAiText('Hello')) },
  { name: 'UTF-8 cut every 3 bytes', api: 'openai', pieces: cutEvery(3, openAiText(unicode)) },
  { name: 'UTF-8 cut every 7 bytes', api: 'openai', pieces: cutEvery(7, openAiText(unicode)) },
  { name: 'CRLF line ends', api: 'openai', pieces: whole(withLineEnds('\r\n', openAiText('Hello'))) },
  {
    name: 'CRLF cut every 5 bytes',
    api: 'openai',
    pieces: cutEvery(5, withLineEnds('\r\n', openAiText('Hi'))),
  },
  { name: 'bare CR line ends', api: 'openai', pieces: whole(withLineEnds('\r', openAiText('Hello'))) },
  {
    name: 'bare CR cut every 2 bytes',
    api: 'openai',
    pieces: cutEvery(2, withLineEnds('\r', openAiText('Hi'))),
  },
  {
    name: 'comments and keep-alives',
    api: 'openai',
    pieces: whole(`: OPENROUTER PROCESSING\n\n${openAiText('Hi').replace(/\n\n/, '\n\n: ping\n\n')}`),
  },
  {
    name: 'data in two data lines',
    api: 'openai',
    pieces: whole(
      `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m",\ndata: "choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}]}\n\n${sse('[DONE]')}`,
    ),
  },
  {
    name: 'data: without a space',
    api: 'openai',
    pieces: whole(openAiText('Hey').replace(/data: /g, 'data:')),
  },
  {
    name: 'id and retry fields, and a field it does not know',
    api: 'openai',
    pieces: whole(
      `id: 1\nretry: 3000\nwhatever: x\n\n${openAiText('Hi').replace('data: ', 'id: 2\ndata: ')}`,
    ),
  },
  {
    name: 'an event name on a normal chunk',
    api: 'openai',
    pieces: whole(openAiText('Hi').replace('data: ', 'event: message\ndata: ')),
  },
  {
    name: 'the last event without its blank line',
    api: 'openai',
    pieces: whole(openAiText('Hi').replace(/\n\n$/, '\n')),
  },
  { name: 'tool call in pieces', api: 'openai', pieces: whole(openAiTool) },
  { name: 'tool call cut every 4 bytes', api: 'openai', pieces: cutEvery(4, openAiTool) },
  { name: 'parallel tool calls with usage', api: 'openai', pieces: whole(openAiParallel) },
  { name: 'parallel tool calls cut every 9 bytes', api: 'openai', pieces: cutEvery(9, openAiParallel) },
  {
    name: 'repeated tool name',
    api: 'openai',
    pieces: whole(
      [
        sse(chunk(call(0, 'call_1', 'get_weather', ''))),
        sse(chunk(call(0, null, 'get_weather', '{"city":"Oslo"}'))),
        sse(chunk({}, 'tool_calls')),
        sse('[DONE]'),
      ].join(''),
    ),
  },
  {
    name: 'text then a tool call',
    api: 'openai',
    pieces: whole(
      [
        sse(chunk({ content: 'Let me look.' })),
        sse(chunk(call(0, 'call_1', 'get_weather', '{"city":"Rome"}'))),
        sse(chunk({}, 'tool_calls')),
        sse('[DONE]'),
      ].join(''),
    ),
  },
  {
    name: 'usage chunk after the finish',
    api: 'openai',
    pieces: whole(openAiText('Hi').replace(sse('[DONE]'), sse(usageChunk) + sse('[DONE]'))),
  },
  {
    name: 'refusal',
    api: 'openai',
    pieces: whole(
      [
        sse(chunk({ refusal: 'I cannot ' })),
        sse(chunk({ refusal: 'help.' })),
        sse(chunk({}, 'stop')),
        sse('[DONE]'),
      ].join(''),
    ),
  },
  {
    name: 'finish reason length',
    api: 'openai',
    pieces: whole([sse(chunk({ content: 'Partial' })), sse(chunk({}, 'length')), sse('[DONE]')].join('')),
  },
  {
    name: 'no terminal marker',
    api: 'openai',
    pieces: whole([sse(chunk({ content: 'Hello, wor' }))].join('')),
  },
  {
    name: '[DONE] without a finish reason',
    api: 'openai',
    pieces: whole([sse(chunk({ content: 'Hello' })), sse('[DONE]')].join('')),
  },
  { name: 'empty body', api: 'openai', pieces: [] },
  {
    name: 'error chunk mid-stream',
    api: 'openai',
    pieces: whole([sse(chunk({ content: 'a' })), sse({ error: { message: 'overloaded' } })].join('')),
  },
  {
    name: 'event: error',
    api: 'openai',
    pieces: whole(
      [sse(chunk({ content: 'a' })), sse({ message: 'bad gateway', code: 502 }, 'error')].join(''),
    ),
  },
  {
    name: 'malformed data line',
    api: 'openai',
    pieces: whole(
      [
        sse(chunk({ content: 'Hello' })),
        'data: {"choices":[{"delta":{"content":" wor\n\n',
        sse(chunk({ content: 'ld' }, 'stop')),
        sse('[DONE]'),
      ].join(''),
    ),
  },

  // Anthropic Messages
  { name: 'text', api: 'anthropic', pieces: whole(anthropicEvents(textBlock(0, ['Hello', ', world']))) },
  {
    name: 'text cut every byte',
    api: 'anthropic',
    pieces: cutEvery(1, anthropicEvents(textBlock(0, ['Hi']))),
  },
  {
    name: 'UTF-8 cut every 5 bytes',
    api: 'anthropic',
    pieces: cutEvery(5, anthropicEvents(textBlock(0, [...unicode]))),
  },
  {
    name: 'CRLF with pings',
    api: 'anthropic',
    pieces: whole(withLineEnds('\r\n', anthropicEvents([ping, ...textBlock(0, ['Hi']), ping]))),
  },
  {
    name: 'bare CR',
    api: 'anthropic',
    pieces: cutEvery(6, withLineEnds('\r', anthropicEvents(textBlock(0, ['Hi'])))),
  },
  {
    name: 'tool use in pieces',
    api: 'anthropic',
    pieces: whole(
      anthropicEvents(toolBlock(0, 'toolu_1', 'get_weather', ['{"city":', ' "Paris"}']), 'tool_use'),
    ),
  },
  {
    name: 'tool input whole in content_block_start',
    api: 'anthropic',
    pieces: whole(anthropicEvents(toolBlock(0, 'toolu_1', 'get_weather', [], { city: 'Paris' }), 'tool_use')),
  },
  {
    name: 'text then two tool uses, cut every 11 bytes',
    api: 'anthropic',
    pieces: cutEvery(
      11,
      anthropicEvents(
        [
          ...textBlock(0, ['Checking.']),
          ...toolBlock(1, 'toolu_1', 'get_weather', ['{"city":"Oslo"}']),
          ...toolBlock(2, 'toolu_2', 'get_time', ['{"zone":', '"CET"}']),
        ],
        'tool_use',
      ),
    ),
  },
  {
    name: 'max tokens',
    api: 'anthropic',
    pieces: whole(anthropicEvents(textBlock(0, ['Part']), 'max_tokens')),
  },
  {
    name: 'cut after a text delta',
    api: 'anthropic',
    pieces: whole(
      anthropicEvents(textBlock(0, ['Hello, wor']).slice(0, 2), 'end_turn', false).split(
        'event: message_delta',
      )[0]!,
    ),
  },
  {
    name: 'message_stop without its blank line',
    api: 'anthropic',
    pieces: whole(anthropicEvents(textBlock(0, ['Hello'])).replace(/\n\n$/, '\n')),
  },
  {
    name: 'message_stop ended by a bare CR at the very end',
    api: 'anthropic',
    pieces: whole(withLineEnds('\r', anthropicEvents(textBlock(0, ['Hello'])))),
  },
  {
    name: 'no message_stop',
    api: 'anthropic',
    pieces: whole(anthropicEvents(textBlock(0, ['Hello']), 'end_turn', false)),
  },
  {
    name: 'error event',
    api: 'anthropic',
    pieces: whole(
      sse(
        {
          type: 'message_start',
          message: {
            id: 'm',
            type: 'message',
            role: 'assistant',
            content: [],
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        },
        'message_start',
      ) + sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error'),
    ),
  },
  {
    name: 'malformed data',
    api: 'anthropic',
    pieces: whole(
      anthropicEvents([
        ...textBlock(0, ['Hi']).slice(0, 2),
        'event: content_block_delta\ndata: {"type":\n\n',
      ]),
    ),
  },

  // Ollama /api/chat
  { name: 'text', api: 'ollama', pieces: whole(ollamaText('Hello, world')) },
  { name: 'text cut every byte', api: 'ollama', pieces: cutEvery(1, ollamaText('Hi')) },
  { name: 'UTF-8 cut every 4 bytes', api: 'ollama', pieces: cutEvery(4, ollamaText(unicode)) },
  { name: 'CRLF line ends', api: 'ollama', pieces: whole(withLineEnds('\r\n', ollamaText('Hey'))) },
  { name: 'tool call', api: 'ollama', pieces: whole(ollamaTool) },
  { name: 'tool call cut every 10 bytes', api: 'ollama', pieces: cutEvery(10, ollamaTool) },
  { name: 'no done line', api: 'ollama', pieces: whole(ollamaPiece('Hello, wor')) },
  {
    name: 'error line',
    api: 'ollama',
    pieces: whole(ollamaPiece('a') + ollamaLine({ error: 'model crashed' })),
  },
  {
    name: 'malformed line',
    api: 'ollama',
    pieces: whole(`${ollamaPiece('Hello')}{"message":\n${ollamaDone}`),
  },
];

const contentTypes: Record<Api, string> = {
  openai: 'text/event-stream',
  anthropic: 'text/event-stream',
  ollama: 'application/x-ndjson',
};

async function serveFixture(fixture: Fixture): Promise<string> {
  const server = await serve(async (_request, response) => {
    response.writeHead(200, { 'content-type': contentTypes[fixture.api], 'cache-control': 'no-cache' });
    for (const piece of fixture.pieces) {
      response.write(piece);
      await new Promise((resolve) => setImmediate(resolve));
    }
    response.end();
  });
  return server.url;
}

async function outcomeOf(read: () => Promise<Omit<Outcome, 'ok'>>): Promise<Outcome> {
  try {
    return { ok: true, ...(await read()) };
  } catch {
    return { ok: false, text: '', toolCalls: [] };
  }
}

const parsedOrText = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

function officialClient(api: Api, url: string): Promise<Outcome> {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  if (api === 'openai') {
    return outcomeOf(async () => {
      const client = new OpenAI({ apiKey: 'k', baseURL: `${url}/v1`, maxRetries: 0 });
      const completion = await client.chat.completions.stream({ model: 'm', messages }).finalChatCompletion();
      const message = completion.choices[0]!.message;
      return {
        text: message.content ?? message.refusal ?? '',
        toolCalls: (message.tool_calls ?? []).flatMap((toolCall) =>
          toolCall.type === 'function'
            ? [{ name: toolCall.function.name, arguments: parsedOrText(toolCall.function.arguments) }]
            : [],
        ),
      };
    });
  }
  if (api === 'anthropic') {
    return outcomeOf(async () => {
      const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
      const message = await client.messages.stream({ model: 'm', max_tokens: 100, messages }).finalMessage();
      return {
        text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
        toolCalls: message.content.flatMap((block) =>
          block.type === 'tool_use' ? [{ name: block.name, arguments: block.input }] : [],
        ),
      };
    });
  }
  return outcomeOf(async () => {
    const client = new Ollama({ host: url });
    let text = '';
    const toolCalls: Outcome['toolCalls'] = [];
    for await (const part of await client.chat({ model: 'm', messages, stream: true })) {
      text += part.message.content;
      for (const toolCall of part.message.tool_calls ?? [])
        toolCalls.push({ name: toolCall.function.name, arguments: toolCall.function.arguments });
    }
    return { text, toolCalls };
  });
}

function ourProvider(api: Api, url: string): Promise<Outcome> {
  const kind = { openai: 'openai-compatible', anthropic: 'anthropic', ollama: 'ollama' }[api];
  const provider = createProvider(
    modelEntry(kind, { base_url: api === 'openai' ? `${url}/v1` : url, max_retries: 0 }),
    testDeps(),
  );
  return outcomeOf(async () => {
    const response = await provider.complete({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      onProgress: () => undefined,
    });
    return {
      text: response.text,
      toolCalls: response.toolCalls.map((toolCall) => ({
        name: toolCall.name,
        arguments: toolCall.arguments,
      })),
    };
  });
}

describe('streams read as the official SDKs read them', () => {
  it('has at least 40 fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(40);
  });

  it.each(fixtures.map((fixture) => [`${fixture.api}: ${fixture.name}`, fixture] as const))(
    '%s',
    async (_name, fixture) => {
      // The ollama client warns on the console for each line it drops.
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
      const official = await officialClient(fixture.api, await serveFixture(fixture));
      warn.mockRestore();
      const ours = await ourProvider(fixture.api, await serveFixture(fixture));
      expect(ours).toEqual(official);
    },
  );
});
