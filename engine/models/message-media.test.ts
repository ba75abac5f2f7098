import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from './anthropic-provider';
import { toOllamaRequest } from './ollama-provider';
import { toOpenAiRequest } from './openai-provider';
import type { ChatMessage, ModelRequest } from './types';

const PNG = 'iVBORw0KGgo=';
const image = { kind: 'image' as const, mimeType: 'image/png', data: PNG };

/** An assistant that called two tools, the first of which answered with an image, then the person speaks again. */
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are ada.' },
  { role: 'user', content: 'Look.' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'mcp__s__shot', arguments: {}, rawArguments: '{}' },
      { id: 'c2', name: 'read_file', arguments: {}, rawArguments: '{}' },
    ],
  },
  { role: 'tool', toolCallId: 'c1', content: '{"output":"[image: image/png, 8 bytes]"}', media: [image] },
  { role: 'tool', toolCallId: 'c2', content: '{"output":"text"}' },
];
const request: ModelRequest = { model: 'm', messages };

describe('images of tool results, as each API takes them', () => {
  it('OpenAI chat: tool messages stay text; one user message after them carries the images as image_url', () => {
    const sent = toOpenAiRequest(request, 'max_tokens').messages as Record<string, unknown>[];
    expect(sent.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(sent[3]).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: '{"output":"[image: image/png, 8 bytes]"}',
    });
    expect(sent[5]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images and sounds the tool results above refer to, in order:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
  });

  it('OpenAI chat: a sound goes as input_audio in wav or mp3', () => {
    const sent = toOpenAiRequest(
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'hear', media: [{ kind: 'audio', mimeType: 'audio/wav', data: 'UklG' }] },
        ],
      },
      'max_tokens',
    ).messages as Record<string, unknown>[];
    expect(sent[0]!.content).toEqual([
      { type: 'text', text: 'hear' },
      { type: 'input_audio', input_audio: { data: 'UklG', format: 'wav' } },
    ]);
  });

  it('Anthropic: the image is a block inside its tool_result', () => {
    const sent = toAnthropicRequest(request).messages as {
      role: string;
      content: Record<string, unknown>[];
    }[];
    const results = sent.at(-1)!;
    expect(results.role).toBe('user');
    expect(results.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'c1',
      content: [
        { type: 'text', text: '{"output":"[image: image/png, 8 bytes]"}' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
    expect(results.content[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 'c2',
      content: '{"output":"text"}',
    });
  });

  it('Ollama: the images go on a user message after the tool messages', () => {
    const sent = toOllamaRequest(request).messages as Record<string, unknown>[];
    expect(sent.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(sent[3]).not.toHaveProperty('images');
    expect(sent[5]).toMatchObject({ role: 'user', images: [PNG] });
  });

  it('a conversation without media is sent as before', () => {
    const plain = messages.map(({ media: _, ...message }) => message);
    expect(toOpenAiRequest({ model: 'm', messages: plain }, 'max_tokens').messages).toHaveLength(5);
    expect(toOllamaRequest({ model: 'm', messages: plain }).messages).toHaveLength(5);
  });
});
