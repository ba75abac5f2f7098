import { z } from 'zod';
import type { ProgressDelta } from '../api/model-event-schemas';
import { endedEarly, parseOrUndefined, parseStreamedJson, serverSentEvents } from './stream-events';

const Usage = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
});
type Usage = z.infer<typeof Usage>;

const Event = z.looseObject({
  type: z.string(),
  index: z.int().nonnegative().optional(),
  message: z.looseObject({ usage: Usage.nullish() }).optional(),
  content_block: z
    .looseObject({
      type: z.string(),
      text: z.string().optional(),
      id: z.string().optional(),
      name: z.string().optional(),
      input: z.unknown().optional(),
    })
    .optional(),
  delta: z
    .looseObject({
      type: z.string().optional(),
      text: z.string().optional(),
      partial_json: z.string().optional(),
      stop_reason: z.string().nullish(),
    })
    .optional(),
  usage: Usage.nullish(),
  error: z.unknown().optional(),
});

type Block = { type: string; text?: string; id?: string; name?: string; input?: unknown; json?: string };

/**
 * Reads a streamed Messages answer (message_start, content_block_start/delta/stop, message_delta,
 * message_stop, ping, error) and returns the message body the same call would have answered unstreamed.
 * As the official SDK, a stream without message_stop is not whole (a StreamError).
 */
export async function assembleAnthropicStream(
  chunks: AsyncIterable<Buffer>,
  emit: (delta: ProgressDelta) => void,
): Promise<unknown> {
  const blocks: Block[] = [];
  let usage: Usage = {};
  let stopReason: string | null = null;
  let stopped = false;
  for await (const { event: name, data } of serverSentEvents(chunks)) {
    const value = parseStreamedJson(data);
    if (name === 'error' && Event.safeParse(value).data?.type !== 'error')
      return { type: 'error', error: value };
    const parsed = Event.safeParse(value);
    if (!parsed.success) continue;
    const event = parsed.data;
    if (event.type === 'message_stop') {
      stopped = true;
      break;
    }
    switch (event.type) {
      case 'error':
        return { type: 'error', error: event.error };
      case 'message_start':
        usage = { ...usage, ...definedFields(event.message?.usage ?? {}) };
        break;
      case 'content_block_start':
        if (event.index !== undefined && event.content_block) {
          const { type, text, id, name, input } = event.content_block;
          blocks[event.index] = {
            type,
            ...(text !== undefined ? { text } : {}),
            ...(id ? { id } : {}),
            ...(name ? { name } : {}),
            ...(input !== undefined ? { input } : {}),
          };
          if (type === 'tool_use') emit({ type: 'tool_call', index: event.index, ...(name ? { name } : {}) });
          if (text) emit({ type: 'text', text });
        }
        break;
      case 'content_block_delta': {
        const block = event.index !== undefined ? blocks[event.index] : undefined;
        if (!block || !event.delta) break;
        if (event.delta.type === 'text_delta' && event.delta.text) {
          block.text = (block.text ?? '') + event.delta.text;
          emit({ type: 'text', text: event.delta.text });
        } else if (event.delta.type === 'input_json_delta' && event.delta.partial_json) {
          block.json = (block.json ?? '') + event.delta.partial_json;
          emit({ type: 'tool_call', index: event.index ?? 0, arguments: event.delta.partial_json });
        }
        break;
      }
      case 'message_delta':
        if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
        usage = { ...usage, ...definedFields(event.usage ?? {}) };
        break;
      default:
        break;
    }
  }
  if (!stopped) throw endedEarly('message_stop');
  return {
    type: 'message',
    role: 'assistant',
    content: blocks
      .filter(Boolean)
      .map(({ json, ...block }) =>
        block.type === 'tool_use'
          ? { ...block, input: json ? (parseOrUndefined(json) ?? {}) : (block.input ?? {}) }
          : block,
      ),
    stop_reason: stopReason,
    usage: { input_tokens: 0, output_tokens: 0, ...usage },
  };
}

/** message_delta's usage repeats fields as null when it has nothing new. */
function definedFields(usage: Usage): Usage {
  return Object.fromEntries(
    Object.entries(usage).filter(([, value]) => value !== null && value !== undefined),
  );
}
