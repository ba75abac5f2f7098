import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import type { ProviderConfig } from './models-file';
import { sendJson } from './test-support/loopback-server';
import { callError, modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';
import type { ChatMessage, ModelRequest, ToolDefinition } from './types';

/**
 * What each wire format's request body may carry, checked field by field against the providers'
 * published specs (OpenAI's OpenAPI description, Anthropic's SDK types, Ollama's docs/api.md).
 */
const serve = useLoopbackServers();

const readTool: ToolDefinition = {
  name: 'file_read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const openAiAnswer = (
  message: Record<string, unknown>,
  finish_reason = 'stop',
  usage: Record<string, unknown> = {},
) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason }],
  usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, ...usage },
});
const anthropicAnswer = (content: unknown[], stop_reason = 'end_turn') => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  content,
  stop_reason,
  usage: {
    input_tokens: 50,
    output_tokens: 10,
    cache_read_input_tokens: 400,
    cache_creation_input_tokens: 100,
  },
});
const ollamaAnswer = (message: Record<string, unknown>, done_reason = 'stop') => ({
  model: 'm',
  message: { role: 'assistant', content: '', ...message },
  done: true,
  done_reason,
  prompt_eval_count: 10,
  eval_count: 5,
});

type Wire = 'openai' | 'anthropic' | 'ollama';
const answers: Record<Wire, unknown> = {
  openai: openAiAnswer({ content: 'ok' }),
  anthropic: anthropicAnswer([{ type: 'text', text: 'ok' }]),
  ollama: ollamaAnswer({ content: 'ok' }),
};
const baseUrl = (wire: Wire, url: string) => (wire === 'openai' ? `${url}/v1` : url);

async function bodyOf(wire: Wire, request: Partial<ModelRequest>, config: ProviderConfig = {}) {
  const server = await serve((_request, response) => sendJson(response, 200, answers[wire]));
  const provider = createProvider(
    modelEntry(wire === 'openai' ? 'openai-compatible' : wire, {
      base_url: baseUrl(wire, server.url),
      ...config,
    }),
    testDeps([], { env: { ANTHROPIC_API_KEY: 'sk-ant' } }),
  );
  await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }], ...request });
  return server.received[0]?.json as Record<string, any>;
}

const toolHistory: ChatMessage[] = [
  { role: 'user', content: 'Read plan.md' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_1', name: 'file_read', arguments: { path: 'plan.md' }, rawArguments: '{"path":"plan.md"}' },
    ],
  },
  {
    role: 'tool',
    toolCallId: 'call_1',
    content: '{"success":false,"output":null,"error":"no such file"}',
    isError: true,
  },
];

describe.each<Wire>(['openai', 'anthropic', 'ollama'])('%s request bodies', (wire) => {
  const sampling = (body: Record<string, any>) => (wire === 'ollama' ? body.options : body);

  it('carry no temperature or top_p unless one is set', async () => {
    const body = await bodyOf(wire, {});
    expect(sampling(body)?.temperature).toBeUndefined();
    expect(sampling(body)?.top_p).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('temperature');
  });

  it('carry the temperature the request sets, or else the one models.json sets', async () => {
    expect(sampling(await bodyOf(wire, { temperature: 0.7 }))).toMatchObject({ temperature: 0.7 });
    expect(sampling(await bodyOf(wire, {}, { temperature: 0.4, top_p: 0.9 }))).toMatchObject({
      temperature: 0.4,
      top_p: 0.9,
    });
    expect(sampling(await bodyOf(wire, { temperature: 0.1 }, { temperature: 0.4 }))).toMatchObject({
      temperature: 0.1,
    });
  });
});

describe('forbidding further tool calls while the history holds some', () => {
  it('OpenAI keeps the tools and says tool_choice "none"', async () => {
    const body = await bodyOf('openai', { messages: toolHistory, tools: [readTool], toolChoice: 'none' });
    expect(body.tools).toEqual([{ type: 'function', function: readTool }]);
    expect(body.tool_choice).toBe('none');
    expect(body.messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content: '{"success":false,"output":null,"error":"no such file"}',
    });
  });

  it('Anthropic keeps the tools, says tool_choice {"type":"none"} and marks the failed result is_error', async () => {
    const body = await bodyOf('anthropic', { messages: toolHistory, tools: [readTool], toolChoice: 'none' });
    expect(body.tools).toEqual([
      { name: 'file_read', description: 'Read a file', input_schema: readTool.parameters },
    ]);
    expect(body.tool_choice).toEqual({ type: 'none' });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_1',
          content: '{"success":false,"output":null,"error":"no such file"}',
          is_error: true,
        },
      ],
    });
  });

  it('Ollama, which has no tool_choice, is offered no tools', async () => {
    const body = await bodyOf('ollama', { messages: toolHistory, tools: [readTool], toolChoice: 'none' });
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
  });

  it('no tool_choice is sent while the model may still call tools', async () => {
    expect((await bodyOf('openai', { tools: [readTool] })).tool_choice).toBeUndefined();
    expect((await bodyOf('anthropic', { tools: [readTool] })).tool_choice).toBeUndefined();
  });

  it('Anthropic gets a final assistant prefix without trailing whitespace', async () => {
    const body = await bodyOf('anthropic', {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Part one \n' },
      ],
    });
    expect(body.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Part one' }],
    });
  });
});

describe('Ollama options', () => {
  it('asks for a context window big enough for the prompt, in powers of two, at least 8192', async () => {
    expect((await bodyOf('ollama', {})).options).toEqual({ num_ctx: 8192 });
    const long = 'x'.repeat(60_000);
    expect(
      (await bodyOf('ollama', { messages: [{ role: 'user', content: long }], maxTokens: 2048 })).options,
    ).toEqual({ num_ctx: 32768, num_predict: 2048 });
  });

  it('passes models.json options (they win) and think', async () => {
    const body = await bodyOf('ollama', {}, { options: { num_ctx: 4096, top_k: 20 }, think: 'low' });
    expect(body.options).toEqual({ num_ctx: 4096, top_k: 20 });
    expect(body.think).toBe('low');
  });
});

describe('stop reasons in shared words', () => {
  async function answerOf(wire: Wire, answer: unknown) {
    const server = await serve((_request, response) => sendJson(response, 200, answer));
    const provider = createProvider(
      modelEntry(wire === 'openai' ? 'openai-compatible' : wire, { base_url: baseUrl(wire, server.url) }),
      testDeps([], { env: { ANTHROPIC_API_KEY: 'sk-ant' } }),
    );
    return provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  }

  it('OpenAI: refusal (with its text), length, content_filter, tool_calls', async () => {
    expect(await answerOf('openai', openAiAnswer({ refusal: 'I cannot help with that.' }))).toMatchObject({
      stop: 'refusal',
      text: 'I cannot help with that.',
    });
    expect((await answerOf('openai', openAiAnswer({ content: 'cut' }, 'length'))).stop).toBe('length');
    expect((await answerOf('openai', openAiAnswer({ content: '' }, 'content_filter'))).stop).toBe(
      'content_filter',
    );
    expect((await answerOf('openai', openAiAnswer({ content: '' }, 'tool_calls'))).stop).toBe('tool_calls');
    expect((await answerOf('openai', openAiAnswer({ content: 'done' }))).stop).toBe('end');
  });

  it('Anthropic: refusal, max_tokens, pause_turn, context window, end_turn', async () => {
    const text = [{ type: 'text', text: 'words' }];
    expect((await answerOf('anthropic', anthropicAnswer(text, 'refusal'))).stop).toBe('refusal');
    expect((await answerOf('anthropic', anthropicAnswer(text, 'max_tokens'))).stop).toBe('length');
    expect((await answerOf('anthropic', anthropicAnswer(text, 'pause_turn'))).stop).toBe('pause');
    expect((await answerOf('anthropic', anthropicAnswer(text, 'model_context_window_exceeded'))).stop).toBe(
      'context_window',
    );
    expect((await answerOf('anthropic', anthropicAnswer(text, 'stop_sequence'))).stop).toBe('end');
  });

  it('Ollama: length, and tool calls', async () => {
    expect((await answerOf('ollama', ollamaAnswer({ content: 'cut' }, 'length'))).stop).toBe('length');
    expect(
      (
        await answerOf(
          'ollama',
          ollamaAnswer({ tool_calls: [{ function: { name: 'file_read', arguments: {} } }] }),
        )
      ).stop,
    ).toBe('tool_calls');
  });
});

describe('cached tokens', () => {
  it('OpenAI: cached_tokens are a part of prompt_tokens', async () => {
    const server = await serve((_request, response) =>
      sendJson(
        response,
        200,
        openAiAnswer({ content: 'ok' }, 'stop', {
          prompt_tokens: 1000,
          prompt_tokens_details: { cached_tokens: 800 },
        }),
      ),
    );
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(),
    );
    const response = await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.usage).toEqual({ inputTokens: 1000, outputTokens: 10, cachedInputTokens: 800 });
  });

  it('Anthropic: cache reads and writes are added to input_tokens and kept apart', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, answers.anthropic));
    const provider = createProvider(
      modelEntry('anthropic', { base_url: server.url }),
      testDeps([], { env: { ANTHROPIC_API_KEY: 'sk-ant-cache-test' } }),
    );
    const response = await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(response.usage).toEqual({
      inputTokens: 550,
      outputTokens: 10,
      cachedInputTokens: 400,
      cacheWriteTokens: 100,
    });
  });
});

describe('retries as the official SDKs do them', () => {
  async function statusesThenOk(statuses: number[], headers: Record<string, string> = {}) {
    const sleeps: number[] = [];
    const server = await serve((_request, response, index) => {
      const status = statuses[index];
      if (status === undefined) return sendJson(response, 200, answers.openai);
      sendJson(response, status, { error: { message: `status ${status}` } }, headers);
    });
    const provider = createProvider(
      modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
      testDeps(sleeps),
    );
    const outcome = await provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(
      (response) => response.text,
      (error: unknown) => error,
    );
    return { outcome, sleeps, requests: server.received.length };
  }

  it('retries 408 (request timeout) and 409 (lock conflict)', async () => {
    expect(await statusesThenOk([408, 409])).toMatchObject({ outcome: 'ok', requests: 3 });
  });

  it('waits the retry-after-ms the server asks for, before retry-after', async () => {
    expect(await statusesThenOk([429], { 'retry-after-ms': '1250', 'retry-after': '9' })).toMatchObject({
      outcome: 'ok',
      sleeps: [1250],
    });
  });

  it('obeys x-should-retry either way', async () => {
    expect(await statusesThenOk([400], { 'x-should-retry': 'true' })).toMatchObject({
      outcome: 'ok',
      requests: 2,
    });
    const refused = await statusesThenOk([503], { 'x-should-retry': 'false' });
    expect(refused.requests).toBe(1);
    expect(refused.outcome).toMatchObject({ kind: 'server', status: 503, retryable: false });
  });

  it('does not retry 400, 401, 403 or 404', async () => {
    for (const status of [400, 401, 403, 404]) {
      const server = await serve((_request, response) =>
        sendJson(response, status, { error: { message: 'no' } }),
      );
      const provider = createProvider(
        modelEntry('openai-compatible', { base_url: `${server.url}/v1` }),
        testDeps(),
      );
      const error = await callError(
        provider.complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(error).toMatchObject({ status, retryable: false });
      expect(server.received).toHaveLength(1);
    }
  });
});
