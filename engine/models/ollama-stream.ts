import { z } from 'zod';
import type { ProgressDelta } from '../api/model-event-schemas';
import { endedEarly, jsonLines, shownPiece } from './stream-events';

const Line = z.looseObject({
  error: z.unknown().optional(),
  message: z
    .looseObject({
      content: z.string().nullish(),
      tool_calls: z.array(z.looseObject({ function: z.looseObject({ name: z.string() }) })).nullish(),
    })
    .nullish(),
  done: z.boolean().optional(),
});

/**
 * Reads Ollama's streamed /api/chat (one JSON object a line; the last has `done: true` and the counts)
 * and returns the single answer the same call would have given unstreamed. As the official client, a
 * stream without `done: true` is not whole (a StreamError), and a line that is not JSON is skipped, with
 * a warning (the official client skips it and warns on the console).
 */
export async function assembleOllamaStream(
  chunks: AsyncIterable<Buffer>,
  emit: (delta: ProgressDelta) => void,
  warn: (warning: string) => void,
): Promise<unknown> {
  let content = '';
  const toolCalls: unknown[] = [];
  let last: Record<string, unknown> = {};
  let done = false;
  const skipped = (line: string) =>
    warn(
      `sent a line of its answer that is not JSON; it was skipped, as Ollama's own client skips it: ${shownPiece(line)}`,
    );
  for await (const value of jsonLines(chunks, skipped)) {
    const line = Line.safeParse(value);
    if (!line.success) continue;
    if (line.data.error !== undefined && line.data.error !== null) return { error: line.data.error };
    const message = line.data.message;
    if (message?.content) {
      content += message.content;
      emit({ type: 'text', text: message.content });
    }
    for (const call of message?.tool_calls ?? []) {
      emit({ type: 'tool_call', index: toolCalls.length, name: call.function.name });
      toolCalls.push(call);
    }
    last = line.data;
    if (line.data.done) {
      done = true;
      break;
    }
  }
  if (!done) throw endedEarly('`done: true` line');
  return {
    ...last,
    message: { role: 'assistant', content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
  };
}
