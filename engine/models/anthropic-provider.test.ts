import { describe, expect, it } from 'vitest';
import { ANTHROPIC_VERSION } from './anthropic-provider';
import { createProvider } from './create-provider';
import { sendJson } from './test-support/loopback-server';
import { callError, modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';
import type { ToolDefinition } from './types';

const serve = useLoopbackServers();

const searchTool: ToolDefinition = {
  name: 'file_read',
  description: 'Read a file in the workspace',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

const message = (content: unknown[], stop_reason = 'end_turn') => ({
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content,
  stop_reason,
  usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 30 },
});

const withKey = (sleeps: number[] = []) => testDeps(sleeps, { env: { ANTHROPIC_API_KEY: 'sk-ant-test' } });

describe('Anthropic Messages', () => {
  it('joins system messages, sends tools as input_schema, and reads text and tool_use blocks', async () => {
    const server = await serve((_request, response) =>
      sendJson(
        response,
        200,
        message(
          [
            { type: 'text', text: 'Let me read it.' },
            { type: 'tool_use', id: 'toolu_1', name: 'file_read', input: { path: 'plan.md' } },
          ],
          'tool_use',
        ),
      ),
    );
    const provider = createProvider(modelEntry('anthropic', { base_url: server.url }), withKey());

    const response = await provider.complete({
      model: 'claude-test',
      messages: [
        { role: 'system', content: 'Preamble.' },
        { role: 'system', content: 'YOUR ROLE: Planner' },
        { role: 'user', content: 'YOUR MEMORY: none' },
        { role: 'user', content: 'Current tick: 3' },
      ],
      tools: [searchTool],
      temperature: 1.5,
      maxTokens: 800,
    });

    const [received] = server.received;
    expect(received?.path).toBe('/v1/messages');
    expect(received?.headers['x-api-key']).toBe('sk-ant-test');
    expect(received?.headers['anthropic-version']).toBe(ANTHROPIC_VERSION);
    expect(received?.headers.authorization).toBeUndefined();
    expect(received?.json).toEqual({
      model: 'claude-test',
      max_tokens: 800,
      system: 'Preamble.\n\nYOUR ROLE: Planner',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'YOUR MEMORY: none' },
            { type: 'text', text: 'Current tick: 3' },
          ],
        },
      ],
      temperature: 1,
      tools: [
        {
          name: 'file_read',
          description: 'Read a file in the workspace',
          input_schema: searchTool.parameters,
        },
      ],
    });
    expect(response).toMatchObject({
      text: 'Let me read it.',
      toolCalls: [
        {
          id: 'toolu_1',
          name: 'file_read',
          arguments: { path: 'plan.md' },
          rawArguments: '{"path":"plan.md"}',
        },
      ],
      usage: { inputTokens: 130, outputTokens: 20 },
      finishReason: 'tool_use',
    });
  });

  it('sends 4096 max_tokens when the agent sets none, as LeMMing did', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, message([{ type: 'text', text: 'hi' }])),
    );
    await createProvider(modelEntry('anthropic', { base_url: server.url }), withKey()).complete({
      model: 'c',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(server.received[0]?.json).toMatchObject({ max_tokens: 4096 });
  });

  it('maps a tool round trip to tool_use and tool_result blocks in alternating turns', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, message([{ type: 'text', text: 'The plan has 2 items.' }])),
    );
    const provider = createProvider(modelEntry('anthropic', { base_url: server.url }), withKey());

    const response = await provider.complete({
      model: 'claude-test',
      messages: [
        { role: 'user', content: 'Summarize plan.md and notes.md' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            {
              id: 'toolu_1',
              name: 'file_read',
              arguments: { path: 'plan.md' },
              rawArguments: '{"path":"plan.md"}',
            },
            {
              id: 'toolu_2',
              name: 'file_read',
              arguments: { path: 'notes.md' },
              rawArguments: '{"path":"notes.md"}',
            },
          ],
        },
        { role: 'tool', toolCallId: 'toolu_1', content: '- a\n- b' },
        { role: 'tool', toolCallId: 'toolu_2', content: '(empty)' },
      ],
    });

    expect(response.text).toBe('The plan has 2 items.');
    expect(response.finishReason).toBe('end_turn');
    expect(server.received[0]?.json).toMatchObject({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Summarize plan.md and notes.md' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'file_read', input: { path: 'plan.md' } },
            { type: 'tool_use', id: 'toolu_2', name: 'file_read', input: { path: 'notes.md' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '- a\n- b' },
            { type: 'tool_result', tool_use_id: 'toolu_2', content: '(empty)' },
          ],
        },
      ],
    });
  });

  it("surfaces Anthropic's error message and retries when overloaded", async () => {
    const server = await serve((_request, response, index) =>
      index === 0
        ? sendJson(response, 529, {
            type: 'error',
            error: { type: 'overloaded_error', message: 'Overloaded' },
          })
        : sendJson(response, 401, {
            type: 'error',
            error: { type: 'authentication_error', message: 'invalid x-api-key' },
          }),
    );
    const sleeps: number[] = [];
    const provider = createProvider(modelEntry('anthropic', { base_url: server.url }), withKey(sleeps));

    const error = await callError(
      provider.complete({ model: 'c', messages: [{ role: 'user', content: 'hi' }] }),
    );

    expect(server.received).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false, attempts: 2 });
    expect(error.message).toBe('Anthropic returned HTTP 401 after 2 attempts: invalid x-api-key');
  });

  it('reports a message without a content list as a bad response', async () => {
    const server = await serve((_request, response) =>
      sendJson(response, 200, { id: 'msg', type: 'message', content: 'not blocks' }),
    );
    const provider = createProvider(modelEntry('anthropic', { base_url: server.url }), withKey());
    const error = await callError(
      provider.complete({ model: 'c', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.kind).toBe('bad_response');
    expect(error.message).toMatch(/^Anthropic answered without a usable content list/);
  });

  it('needs ANTHROPIC_API_KEY for the real API', async () => {
    const provider = createProvider(modelEntry('anthropic', {}), testDeps());
    const error = await callError(provider.complete({ model: 'c', messages: [] }));
    expect(error.kind).toBe('missing_key');
    expect(error.message).toContain('ANTHROPIC_API_KEY');
  });
});
