import { z } from 'zod';
import type { ProgressDelta } from '../api/model-event-schemas';
import { endedEarly, parseStreamedJson, serverSentEvents } from './stream-events';

const ToolCallDelta = z.looseObject({
  index: z.int().nonnegative().optional(),
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

const Chunk = z.looseObject({
  error: z.unknown().optional(),
  choices: z
    .array(
      z.looseObject({
        delta: z
          .looseObject({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            tool_calls: z.array(ToolCallDelta).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z.unknown().optional(),
});

interface FormingCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

/**
 * Reads a streamed chat completion (`stream: true`, `stream_options.include_usage`): content, refusal
 * and tool-call pieces, the finish reason, and the usage of the last chunk, up to `data: [DONE]`.
 * Returns the chat.completion body the same call would have answered unstreamed. As the official SDK,
 * an answer without a finish reason is not whole (a StreamError), and a piece that is not JSON is an error.
 */
export async function assembleOpenAiStream(
  chunks: AsyncIterable<Buffer>,
  emit: (delta: ProgressDelta) => void,
): Promise<unknown> {
  let content = '';
  let refusal: string | null = null;
  let finishReason: string | null = null;
  let usage: unknown = null;
  const calls: FormingCall[] = [];
  for await (const { event, data } of serverSentEvents(chunks)) {
    if (data === '[DONE]') break;
    const parsed = parseStreamedJson(data);
    if (event === 'error') return { error: parsed };
    const chunk = Chunk.safeParse(parsed);
    if (!chunk.success) continue;
    if (chunk.data.error !== undefined && chunk.data.error !== null) return { error: chunk.data.error };
    if (chunk.data.usage) usage = chunk.data.usage;
    const choice = chunk.data.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (delta.content) {
      content += delta.content;
      emit({ type: 'text', text: delta.content });
    }
    if (delta.refusal) {
      refusal = (refusal ?? '') + delta.refusal;
      emit({ type: 'text', text: delta.refusal });
    }
    for (const [position, piece] of (delta.tool_calls ?? []).entries()) {
      const index = piece.index ?? position;
      const call = (calls[index] ??= { id: undefined, name: '', arguments: '' });
      if (piece.id) call.id = piece.id;
      // Some servers repeat the whole name in a later piece; the SDK ends up with it once.
      const name = piece.function?.name && piece.function.name !== call.name ? piece.function.name : '';
      if (name) call.name += name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
      emit({
        type: 'tool_call',
        index,
        ...(name ? { name } : {}),
        ...(piece.function?.arguments ? { arguments: piece.function.arguments } : {}),
      });
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (finishReason === null) throw endedEarly('finish_reason');
  const toolCalls = calls.filter(Boolean).map((call) => ({
    ...(call.id ? { id: call.id } : {}),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: content === '' ? null : content,
          refusal,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReason,
      },
    ],
    usage,
  };
}
