import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import { sendJson } from './test-support/loopback-server';
import { callError, modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';
import type { ToolDefinition } from './types';

const serve = useLoopbackServers();

const listTool: ToolDefinition = {
  name: 'file_list',
  description: 'List files',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};

const chatAnswer = (message: Record<string, unknown>) => ({
  model: 'llama3.2',
  created_at: '2026-01-01T00:00:00Z',
  message: { role: 'assistant', ...message },
  done: true,
  done_reason: 'stop',
  prompt_eval_count: 26,
  eval_count: 12,
});

describe('Ollama /api/chat', () => {
  it('puts temperature and max tokens in options, disables streaming and sends tools', async () => {
    const server = await serve((_request, response) =>
      sendJson(
        response,
        200,
        chatAnswer({
          content: '',
          tool_calls: [{ function: { name: 'file_list', arguments: { path: '.' } } }],
        }),
      ),
    );
    const provider = createProvider(modelEntry('ollama', { base_url: server.url }), testDeps());

    const response = await provider.complete({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is in the workspace?' },
      ],
      tools: [listTool],
      temperature: 0.3,
      maxTokens: 256,
    });

    const [received] = server.received;
    expect(received?.path).toBe('/api/chat');
    expect(received?.headers.authorization).toBeUndefined();
    expect(received?.json).toEqual({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is in the workspace?' },
      ],
      stream: false,
      options: { num_ctx: 8192, temperature: 0.3, num_predict: 256 },
      tools: [{ type: 'function', function: listTool }],
    });
    expect(response).toMatchObject({
      text: '',
      toolCalls: [
        { id: 'call_0', name: 'file_list', arguments: { path: '.' }, rawArguments: '{"path":"."}' },
      ],
      usage: { inputTokens: 26, outputTokens: 12 },
      finishReason: 'stop',
    });
  });

  it('sends tool results with the name of the tool that produced them', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, chatAnswer({ content: 'Two files.' })),
    );
    const provider = createProvider(modelEntry('ollama', { base_url: server.url }), testDeps());

    const response = await provider.complete({
      model: 'llama3.2',
      messages: [
        { role: 'user', content: 'List files' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call_0', name: 'file_list', arguments: { path: '.' }, rawArguments: '{"path":"."}' },
          ],
        },
        { role: 'tool', toolCallId: 'call_0', content: 'a.txt\nb.txt' },
      ],
    });

    expect(response.text).toBe('Two files.');
    expect(server.received[0]?.json).toEqual({
      model: 'llama3.2',
      stream: false,
      options: { num_ctx: 8192 },
      messages: [
        { role: 'user', content: 'List files' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'file_list', arguments: { path: '.' } } }],
        },
        { role: 'tool', content: 'a.txt\nb.txt', tool_name: 'file_list' },
      ],
    });
  });

  it('raises an error when Ollama reports one, instead of returning it as the answer', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 404, { error: 'model "llama9" not found, try pulling it first' }),
    );
    const provider = createProvider(modelEntry('ollama', { base_url: server.url }), testDeps());

    const error = await callError(
      provider.complete({ model: 'llama9', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(error).toMatchObject({ kind: 'not_found', status: 404, retryable: false });
    expect(error.message).toBe('Ollama returned HTTP 404: model "llama9" not found, try pulling it first');
  });

  it('treats an error field in a 200 answer as a bad response', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { error: 'llama runner process has terminated' }),
    );
    const provider = createProvider(modelEntry('ollama', { base_url: server.url }), testDeps());
    const error = await callError(
      provider.complete({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.kind).toBe('bad_response');
    expect(error.message).toBe('Ollama answered with an error: llama runner process has terminated');
  });

  it('finds the server through OLLAMA_BASE_URL when models.json names none', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, chatAnswer({ content: 'hello' })),
    );
    const provider = createProvider(
      modelEntry('ollama', {}),
      testDeps([], { env: { OLLAMA_BASE_URL: server.url } }),
    );
    expect(
      (await provider.complete({ model: 'llama3.2', messages: [{ role: 'user', content: 'hi' }] })).text,
    ).toBe('hello');
  });

  it('lets models.json turn native tools off for models that cannot call tools', () => {
    expect(createProvider(modelEntry('ollama', {}), testDeps()).nativeTools).toBe(true);
    expect(createProvider(modelEntry('ollama', { native_tools: false }), testDeps()).nativeTools).toBe(false);
  });
});
