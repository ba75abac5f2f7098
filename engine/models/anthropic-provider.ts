import { z } from 'zod';
import type { ProgressDelta } from '../api/model-event-schemas';
import type { ServerModel } from '../api/model-setup-schemas';
import { JsonApiProvider } from './json-api-provider';
import { ANTHROPIC_MEDIA } from './message-media';
import { assembleAnthropicStream } from './anthropic-stream';
import { isPlainObject } from './json-values';
import { modelListIn } from './model-list';
import { describeIssue, errorInBody, type ParsedAnswer } from './parsed-answer';
import type { ChatMessage, MessageMedia, ModelRequest, StopReason, TokenUsage, ToolCall } from './types';

export const ANTHROPIC_VERSION = '2023-06-01';
/** The Messages API requires max_tokens; this is what LeMMing always sent. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** Anthropic Messages API with tool use. */
export class AnthropicProvider extends JsonApiProvider {
  readonly media = ANTHROPIC_MEDIA;
  protected readonly path = 'v1/messages';
  protected readonly modelsPath = 'v1/models?limit=1000';
  override readonly continuesAssistantMessage = true;

  protected authHeaders(key: string | undefined): Record<string, string> {
    return { 'anthropic-version': ANTHROPIC_VERSION, ...(key ? { 'x-api-key': key } : {}) };
  }

  protected requestBody(request: ModelRequest, stream: boolean): Record<string, unknown> {
    return toAnthropicRequest(request, stream);
  }

  protected assembleStream(
    chunks: AsyncIterable<Buffer>,
    emit: (delta: ProgressDelta) => void,
  ): Promise<unknown> {
    return assembleAnthropicStream(chunks, emit);
  }

  protected parseAnswer(body: unknown): ParsedAnswer {
    return fromAnthropicResponse(body);
  }

  protected parseModelList(body: unknown): ServerModel[] | null {
    return modelListIn(body, 'data', (item) => ({
      id: item.id ?? '',
      label: item.display_name ?? item.id ?? '',
    }));
  }
}

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

export function toAnthropicRequest(request: ModelRequest, stream = false): Record<string, unknown> {
  const system = request.messages
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n\n');
  return {
    model: request.model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    ...(stream ? { stream: true } : {}),
    ...(system ? { system } : {}),
    messages: toAnthropicMessages(request.messages),
    // Anthropic accepts 0..1; resumes allow up to 2 (OpenAI's range).
    ...(request.temperature !== undefined ? { temperature: Math.min(request.temperature, 1) } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            name: tool.name,
            description: tool.description,
            input_schema: tool.parameters,
          })),
          ...(request.toolChoice ? { tool_choice: { type: request.toolChoice } } : {}),
        }
      : {}),
  };
}

/** Anthropic's stop_reason in the shared words. */
export function anthropicStopReason(stopReason: string | null): StopReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case null:
      return 'end';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'length';
    case 'model_context_window_exceeded':
      return 'context_window';
    case 'refusal':
      return 'refusal';
    case 'pause_turn':
      return 'pause';
    default:
      return 'other';
  }
}

/** Anthropic's input_tokens leaves out cache reads and writes; ours counts every prompt token. */
export function fromAnthropicUsage(usage: {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}): TokenUsage {
  const cacheRead = Math.round(usage.cache_read_input_tokens ?? 0);
  const cacheWrite = Math.round(usage.cache_creation_input_tokens ?? 0);
  return {
    inputTokens: Math.round(usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: Math.round(usage.output_tokens ?? 0),
    ...(cacheRead ? { cachedInputTokens: cacheRead } : {}),
    ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
  };
}

/**
 * Anthropic wants alternating user/assistant turns of content blocks, with tool results as
 * tool_result blocks in a user turn; consecutive turns of one role are merged, empty text dropped.
 */
export function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const turns: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    const turn = toTurn(message);
    if (turn.content.length === 0) continue;
    const previous = turns[turns.length - 1];
    if (previous && previous.role === turn.role) previous.content.push(...turn.content);
    else turns.push(turn);
  }
  trimFinalAssistantText(turns);
  return turns;
}

/** A final assistant turn is a prefix the model continues; the API refuses one ending in whitespace. */
function trimFinalAssistantText(turns: AnthropicMessage[]): void {
  const last = turns[turns.length - 1];
  if (last?.role !== 'assistant') return;
  const block = last.content[last.content.length - 1];
  if (block?.type !== 'text' || typeof block.text !== 'string') return;
  const trimmed = block.text.trimEnd();
  if (trimmed) block.text = trimmed;
  else last.content.pop();
  if (last.content.length === 0) turns.pop();
}

function toTurn(message: ChatMessage): AnthropicMessage {
  const text: Block[] = message.content === '' ? [] : [{ type: 'text', text: message.content }];
  if (message.role === 'assistant') {
    const toolUses = (message.toolCalls ?? []).map((call) => ({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: isPlainObject(call.arguments) ? call.arguments : {},
    }));
    return { role: 'assistant', content: [...text, ...toolUses] };
  }
  if (message.role === 'tool') {
    return message.toolCallId
      ? {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: message.toolCallId,
              content: message.media?.length
                ? [{ type: 'text', text: message.content }, ...message.media.map(toImageBlock)]
                : message.content,
              ...(message.isError ? { is_error: true } : {}),
            },
          ],
        }
      : { role: 'user', content: [{ type: 'text', text: `Tool result:\n${message.content}` }] };
  }
  return { role: 'user', content: [...text, ...(message.media ?? []).map(toImageBlock)] };
}

/** An image as Anthropic's base64 image block (the only media it takes). */
function toImageBlock(media: MessageMedia): Block {
  return { type: 'image', source: { type: 'base64', media_type: media.mimeType, data: media.data } };
}

const AnthropicResponse = z.looseObject({
  content: z.array(
    z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      id: z.string().optional(),
      name: z.string().optional(),
      input: z.unknown().optional(),
    }),
  ),
  stop_reason: z.string().nullish(),
  usage: z
    .looseObject({
      input_tokens: z.number().nonnegative(),
      output_tokens: z.number().nonnegative(),
      cache_creation_input_tokens: z.number().nonnegative().nullish(),
      cache_read_input_tokens: z.number().nonnegative().nullish(),
    })
    .nullish(),
});

export function fromAnthropicResponse(body: unknown): ParsedAnswer {
  const reportedError = errorInBody(body);
  if (reportedError) return reportedError;
  const checked = AnthropicResponse.safeParse(body);
  if (!checked.success)
    return { ok: false, error: `answered without a usable content list (${describeIssue(checked.error)})` };
  const blocks = checked.data.content;
  const text = blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
  const toolCalls: ToolCall[] = blocks
    .filter((block) => block.type === 'tool_use')
    .map((block, index) => ({
      id: block.id ?? `toolu_${index}`,
      name: block.name ?? '',
      arguments: block.input ?? {},
      rawArguments: JSON.stringify(block.input ?? {}),
    }));
  const usage = checked.data.usage;
  const finishReason = checked.data.stop_reason ?? null;
  return {
    ok: true,
    value: {
      text,
      toolCalls,
      usage: usage ? fromAnthropicUsage(usage) : null,
      finishReason,
      stop: anthropicStopReason(finishReason),
      raw: body,
    },
  };
}
