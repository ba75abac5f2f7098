import { z } from 'zod';
import type { ProgressDelta } from '../api/model-event-schemas';
import type { ServerModel } from '../api/model-setup-schemas';
import { JsonApiProvider } from './json-api-provider';
import { OLLAMA_MEDIA, TOOL_MEDIA_INTRO, withToolMediaAfter } from './message-media';
import { assembleOllamaStream } from './ollama-stream';
import { functionToolCalls, isPlainObject } from './json-values';
import { modelListIn } from './model-list';
import { describeIssue, errorInBody, type ParsedAnswer } from './parsed-answer';
import type { ChatMessage, MessageMedia, ModelRequest, StopReason, ToolCall } from './types';
import type { HttpEndpoint } from './endpoint';

/** What models.json may set for Ollama: `options` (num_ctx, top_k, …) and `think`. */
export interface OllamaSettings {
  options?: Record<string, unknown>;
  think?: boolean | 'low' | 'medium' | 'high';
}

/** Ollama's own default context (2048–4096 tokens) silently cuts an agent's prompt; never ask for less than this. */
export const OLLAMA_MIN_CONTEXT = 8192;
const OLLAMA_MAX_AUTO_CONTEXT = 131_072;

/** Ollama's native /api/chat. Its errors are errors (LeMMing returned them as the answer). */
export class OllamaProvider extends JsonApiProvider {
  readonly media = OLLAMA_MEDIA;
  protected readonly path = 'api/chat';
  protected readonly modelsPath = 'api/tags';

  constructor(
    endpoint: HttpEndpoint,
    private readonly settings: OllamaSettings = {},
  ) {
    super(endpoint);
  }

  protected authHeaders(key: string | undefined): Record<string, string> {
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  protected requestBody(request: ModelRequest, stream: boolean): Record<string, unknown> {
    return toOllamaRequest(request, this.settings, stream);
  }

  protected override streamHeaders(): Record<string, string> {
    return { accept: 'application/x-ndjson' };
  }

  protected assembleStream(
    chunks: AsyncIterable<Buffer>,
    emit: (delta: ProgressDelta) => void,
    warn: (warning: string) => void,
  ): Promise<unknown> {
    return assembleOllamaStream(chunks, emit, warn);
  }

  protected parseAnswer(body: unknown): ParsedAnswer {
    return fromOllamaResponse(body);
  }

  protected parseModelList(body: unknown): ServerModel[] | null {
    return modelListIn(body, 'models', (item) => ({
      id: item.model ?? item.name ?? '',
      label: item.name ?? item.model ?? '',
    }));
  }
}

/**
 * A context window that holds the prompt and the answer, in powers of two so that Ollama, which reloads
 * a model when num_ctx changes, reloads rarely.
 */
export function ollamaContextFor(request: ModelRequest): number {
  // Three characters a token: generous, so the window errs on the big side.
  const characters = request.messages.reduce(
    (sum, message) => sum + message.content.length + JSON.stringify(message.toolCalls ?? []).length,
    0,
  );
  const toolCharacters = JSON.stringify(request.tools ?? []).length;
  const needed = Math.ceil((characters + toolCharacters) / 3) + (request.maxTokens ?? 0);
  let size = OLLAMA_MIN_CONTEXT;
  while (size < needed && size < OLLAMA_MAX_AUTO_CONTEXT) size *= 2;
  return size;
}

export function toOllamaRequest(
  request: ModelRequest,
  settings: OllamaSettings = {},
  stream = false,
): Record<string, unknown> {
  // Sampling settings belong in `options`; Ollama ignores them at the top level, where LeMMing put temperature.
  const options = {
    num_ctx: ollamaContextFor(request),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.topP !== undefined ? { top_p: request.topP } : {}),
    ...(request.maxTokens !== undefined ? { num_predict: request.maxTokens } : {}),
    ...settings.options,
  };
  // Ollama has no tool_choice: the way to forbid calls is to offer no tools (it enforces no tools-in-history rule).
  const offerTools = request.tools?.length && request.toolChoice !== 'none';
  return {
    model: request.model,
    messages: toOllamaMessages(request.messages),
    stream,
    options,
    ...(settings.think !== undefined ? { think: settings.think } : {}),
    ...(offerTools
      ? {
          tools: (request.tools ?? []).map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
  };
}

function toOllamaMessages(messages: ChatMessage[]): Record<string, unknown>[] {
  const toolNames = new Map<string, string>();
  const images = (media: readonly MessageMedia[]) => media.map((item) => item.data);
  const carrier = (media: MessageMedia[]) => ({
    role: 'user',
    content: TOOL_MEDIA_INTRO,
    images: images(media),
  });
  return withToolMediaAfter<Record<string, unknown>>(
    messages,
    (message) => {
      if (message.role === 'assistant' && message.toolCalls?.length) {
        for (const call of message.toolCalls) toolNames.set(call.id, call.name);
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: message.toolCalls.map((call) => ({
            function: { name: call.name, arguments: isPlainObject(call.arguments) ? call.arguments : {} },
          })),
        };
      }
      if (message.role === 'tool') {
        const toolName = message.toolCallId ? toolNames.get(message.toolCallId) : undefined;
        return { role: 'tool', content: message.content, ...(toolName ? { tool_name: toolName } : {}) };
      }
      return {
        role: message.role,
        content: message.content,
        ...(message.media?.length ? { images: images(message.media) } : {}),
      };
    },
    carrier,
  );
}

const OllamaResponse = z.looseObject({
  message: z.looseObject({
    content: z.string().nullish(),
    tool_calls: z
      .array(
        z.looseObject({
          id: z.string().optional(),
          function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
        }),
      )
      .nullish(),
  }),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nonnegative().nullish(),
  eval_count: z.number().nonnegative().nullish(),
});

export function fromOllamaResponse(body: unknown): ParsedAnswer {
  const reportedError = errorInBody(body);
  if (reportedError) return reportedError;
  const checked = OllamaResponse.safeParse(body);
  if (!checked.success)
    return { ok: false, error: `answered without a usable message (${describeIssue(checked.error)})` };
  const { message, done_reason, prompt_eval_count, eval_count } = checked.data;
  const toolCalls: ToolCall[] = functionToolCalls(message.tool_calls ?? []);
  const hasUsage = prompt_eval_count != null || eval_count != null;
  return {
    ok: true,
    value: {
      text: message.content ?? '',
      toolCalls,
      usage: hasUsage
        ? { inputTokens: Math.round(prompt_eval_count ?? 0), outputTokens: Math.round(eval_count ?? 0) }
        : null,
      finishReason: done_reason ?? null,
      stop: ollamaStopReason(done_reason ?? null, toolCalls.length > 0),
      raw: body,
    },
  };
}

/** Ollama's done_reason ("stop", "length", "load", "unload") in the shared words. */
export function ollamaStopReason(doneReason: string | null, calledTools: boolean): StopReason {
  if (doneReason === 'length') return 'length';
  if (calledTools) return 'tool_calls';
  return doneReason === 'stop' || doneReason === null ? 'end' : 'other';
}
