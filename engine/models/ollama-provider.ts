import { z } from 'zod';
import { JsonApiProvider } from './json-api-provider';
import { functionToolCalls, isPlainObject } from './json-values';
import { describeIssue, errorInBody, type ParsedAnswer } from './parsed-answer';
import type { ChatMessage, ModelRequest, ToolCall } from './types';

/** Ollama's native /api/chat. Its errors are errors (LeMMing returned them as the answer). */
export class OllamaProvider extends JsonApiProvider {
  protected readonly path = 'api/chat';

  protected authHeaders(key: string | undefined): Record<string, string> {
    return key ? { authorization: `Bearer ${key}` } : {};
  }

  protected requestBody(request: ModelRequest): Record<string, unknown> {
    return toOllamaRequest(request);
  }

  protected parseAnswer(body: unknown): ParsedAnswer {
    return fromOllamaResponse(body);
  }
}

export function toOllamaRequest(request: ModelRequest): Record<string, unknown> {
  // Sampling settings belong in `options`; Ollama ignores them at the top level, where LeMMing put temperature.
  const options = {
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxTokens !== undefined ? { num_predict: request.maxTokens } : {}),
  };
  return {
    model: request.model,
    messages: toOllamaMessages(request.messages),
    stream: false,
    ...(Object.keys(options).length ? { options } : {}),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
  };
}

function toOllamaMessages(messages: ChatMessage[]): Record<string, unknown>[] {
  const toolNames = new Map<string, string>();
  return messages.map((message) => {
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
    return { role: message.role, content: message.content };
  });
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
    return { ok: false, problem: `answered without a usable message (${describeIssue(checked.error)})` };
  const { message, done_reason, prompt_eval_count, eval_count } = checked.data;
  const toolCalls: ToolCall[] = functionToolCalls(message.tool_calls ?? []);
  const hasUsage = prompt_eval_count != null || eval_count != null;
  return {
    ok: true,
    response: {
      text: message.content ?? '',
      toolCalls,
      usage: hasUsage
        ? { inputTokens: Math.round(prompt_eval_count ?? 0), outputTokens: Math.round(eval_count ?? 0) }
        : null,
      finishReason: done_reason ?? null,
      raw: body,
    },
  };
}
