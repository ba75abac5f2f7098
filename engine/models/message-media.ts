import type { ChatMessage, MediaSupport, MessageMedia } from './types';

/** The image types every one of our wire formats carries (OpenAI, Anthropic and Ollama agree on these). */
const IMAGES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** OpenAI chat takes images, and sound as `input_audio` in wav or mp3 only. */
export const OPENAI_MEDIA: MediaSupport = {
  image: IMAGES,
  audio: ['audio/wav', 'audio/x-wav', 'audio/mpeg', 'audio/mp3'],
};
/** Anthropic Messages takes images (in tool_result blocks too), no sound. */
export const ANTHROPIC_MEDIA: MediaSupport = { image: IMAGES, audio: [] };
/** Ollama takes images (`images` on a message), no sound. */
export const OLLAMA_MEDIA: MediaSupport = { image: IMAGES, audio: [] };

/**
 * The media of tool messages, for APIs that take them only in a user message: each run of tool messages
 * (which must follow their assistant message unbroken) is followed by one user message carrying them.
 */
export function withToolMediaAfter<T>(
  messages: readonly ChatMessage[],
  convert: (message: ChatMessage) => T,
  carrier: (media: MessageMedia[]) => T,
): T[] {
  const out: T[] = [];
  let pending: MessageMedia[] = [];
  const flush = () => {
    if (pending.length > 0) out.push(carrier(pending));
    pending = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    out.push(convert(message));
    if (message.role === 'tool' && message.media) pending.push(...message.media);
  }
  flush();
  return out;
}

/** The words before the media a user message carries for tool results. */
export const TOOL_MEDIA_INTRO = 'The images and sounds the tool results above refer to, in order:';
