import { z } from 'zod';
import type { HttpEndpoint } from './endpoint';
import type { ProgressDelta } from '../api/model-event-schemas';
import type { ServerModel } from '../api/model-setup-schemas';
import { JsonApiProvider } from './json-api-provider';
import { assembleOpenAiStream } from './openai-stream';
import { functionToolCalls } from './json-values';
import { modelListIn } from './model-list';
import { describeIssue, errorInBody, type ParsedAnswer } from './parsed-answer';
import { OPENAI_MEDIA, TOOL_MEDIA_INTRO, withToolMediaAfter } from './message-media';
import type {
  ChatMessage,
  MessageMedia,
  ModelRequest,
  StopReason,
  TokenUsage,
  ToolCall,
  ToolDefinition,
} from './types';

/** OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers want max_tokens. */
export type MaxTokensField = 'max_tokens' | 'max_completion_tokens';

/** OpenAI chat completions, and every server that speaks it (OpenRouter, LM Studio, vLLM, llama.cpp). */
export class OpenAiCompatibleProvider extends JsonApiProvider {
  readonly media = OPENAI_MEDIA;
  protected readonly path = 'chat/completions';
  protected readonly modelsPath = 'models';

  constructor(
    endpoint: HttpEndpoint,
    private readonly maxTokensField: MaxTokensField,
  ) {
    super(endpoint);
  }

  protected authHeaders(key: string | undefined): Record<string, string> {
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  protected requestBody(request: ModelRequest, stream: boolean): Record<string, unknown> {
    return toOpenAiRequest(request, this.maxTokensField, stream);
  }

  protected assembleStream(
    chunks: AsyncIterable<Buffer>,
    emit: (delta: ProgressDelta) => void,
  ): Promise<unknown> {
    return assembleOpenAiStream(chunks, emit);
  }

  protected parseAnswer(body: unknown): ParsedAnswer {
    return fromOpenAiResponse(body);
  }

  protected parseModelList(body: unknown): ServerModel[] | null {
    return modelListIn(body, 'data', (item) => ({ id: item.id ?? '', label: item.id ?? '' }));
  }
}

export function toOpenAiRequest(
  request: ModelRequest,
  maxTokensField: MaxTokensField,
  stream = false,
): Record<string, unknown> {
  return {
    model: request.model,
    // Without include_usage a streamed answer reports no tokens, and nothing could be charged.
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    messages: withToolMediaAfter(request.messages, toOpenAiMessage, (media) => ({
      role: 'user',
      content: [{ type: 'text', text: TOOL_MEDIA_INTRO }, ...media.map(toOpenAiPart)],
    })),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(request.maxTokens !== undefined ? { [maxTokensField]: request.maxTokens } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map(toOpenAiTool),
          ...(request.toolChoice ? { tool_choice: request.toolChoice } : {}),
        }
      : {}),
  };
}

/** OpenAI's finish_reason in the shared words; a refusal is a message field, not a finish reason. */
export function openAiStopReason(finishReason: string | null, refused: boolean): StopReason {
  if (refused) return 'refusal';
  switch (finishReason) {
    case 'stop':
    case null:
      return 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function toOpenAiMessage(message: ChatMessage): Record<string, unknown> {
  if (message.role === 'assistant' && message.toolCalls?.length) {
    return {
      role: 'assistant',
      content: message.content === '' ? null : message.content,
      tool_calls: message.toolCalls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.rawArguments },
      })),
    };
  }
  if (message.role === 'tool') {
    return message.toolCallId
      ? { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
      : { role: 'user', content: `Tool result:\n${message.content}` };
  }
  if (message.role === 'user' && message.media?.length)
    return {
      role: 'user',
      content: [{ type: 'text', text: message.content }, ...message.media.map(toOpenAiPart)],
    };
  return { role: message.role, content: message.content };
}

/** An image as an `image_url` data URL; a sound as `input_audio` (wav or mp3). */
function toOpenAiPart(media: MessageMedia): Record<string, unknown> {
  if (media.kind === 'audio')
    return {
      type: 'input_audio',
      input_audio: { data: media.data, format: /wav/.test(media.mimeType) ? 'wav' : 'mp3' },
    };
  return { type: 'image_url', image_url: { url: `data:${media.mimeType};base64,${media.data}` } };
}

function toOpenAiTool(tool: ToolDefinition): Record<string, unknown> {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

const TextPart = z.looseObject({ type: z.string(), text: z.string().optional() });

const OpenAiToolCall = z.looseObject({
  id: z.string().optional(),
  function: z.looseObject({
    name: z.string(),
    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  }),
});

const OpenAiResponse = z.looseObject({
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.union([z.string(), z.array(TextPart)]).nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(OpenAiToolCall).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z.unknown().optional(),
});

const OpenAiUsage = z.looseObject({
  prompt_tokens: z.number().nonnegative(),
  completion_tokens: z.number().nonnegative(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nonnegative().nullish() }).nullish(),
});

/** Usage as OpenAI reports it: prompt_tokens includes the cached ones. Null when absent or unreadable. */
export function fromOpenAiUsage(usage: unknown): TokenUsage | null {
  const checked = OpenAiUsage.safeParse(usage);
  if (!checked.success) return null;
  const cached = checked.data.prompt_tokens_details?.cached_tokens;
  return {
    inputTokens: Math.round(checked.data.prompt_tokens),
    outputTokens: Math.round(checked.data.completion_tokens),
    ...(cached ? { cachedInputTokens: Math.round(cached) } : {}),
  };
}

/** Reads a chat completion; anything that is not one is described, never thrown. */
export function fromOpenAiResponse(body: unknown): ParsedAnswer {
  const reportedError = errorInBody(body);
  if (reportedError) return reportedError;
  const checked = OpenAiResponse.safeParse(body);
  if (!checked.success)
    return {
      ok: false,
      error: `answered without a usable choices[0].message (${describeIssue(checked.error)})`,
    };
  const choice = checked.data.choices[0] as (typeof checked.data.choices)[number];
  const content = choice.message.content;
  const written =
    typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');
  const refusal = choice.message.refusal ?? null;
  const text = refusal && !written ? refusal : written;
  const toolCalls: ToolCall[] = functionToolCalls(choice.message.tool_calls ?? []);
  const finishReason = choice.finish_reason ?? null;
  return {
    ok: true,
    value: {
      text,
      toolCalls,
      usage: fromOpenAiUsage(checked.data.usage),
      finishReason,
      stop: openAiStopReason(finishReason, refusal !== null),
      raw: body,
    },
  };
}
