import type { ModelInput, ModelProvider, MessageMedia, ChatMessage } from '../models/types';
import { saveAttachment } from '../timeline/attachments';
import type { ToolMedia, ToolResult } from '../tools/tool-result';

/** The most of one image or sound a model is given (Anthropic's limit per image; others allow more). */
export const MODEL_MEDIA_MAX_BYTES = 5 * 1024 * 1024;

const NAMES = { image: 'images', audio: 'sounds' } as const;

/**
 * Which of a result's images and sounds the model is given: those its models.json `input` says it
 * takes, of a type its API carries, not too large; for each other one, why not, in words for the model.
 */
export function mediaForModel(
  media: readonly ToolMedia[] | undefined,
  input: readonly ModelInput[] | undefined,
  provider: Pick<ModelProvider, 'media'>,
): { given: MessageMedia[]; notShown: string[] } {
  const given: MessageMedia[] = [];
  const notShown: string[] = [];
  for (const item of media ?? []) {
    const what = `${item.kind} ${item.mimeType} (${item.bytes} bytes)`;
    if (!input?.includes(item.kind))
      notShown.push(`${what}: this model is not set up to take ${NAMES[item.kind]}`);
    else if (!provider.media?.[item.kind].includes(item.mimeType))
      notShown.push(`${what}: this model's API does not take ${item.mimeType}`);
    else if (item.bytes > MODEL_MEDIA_MAX_BYTES)
      notShown.push(`${what}: larger than the ${MODEL_MEDIA_MAX_BYTES / 1024 / 1024} MB a model is given`);
    else given.push({ kind: item.kind, mimeType: item.mimeType, data: item.data, sha256: item.sha256 });
  }
  return { given, notShown };
}

/** The result as the model reads it (LeMMing's three fields), saying which of its media it is not shown. */
export function toolMessageText(result: ToolResult, notShown: readonly string[]): string {
  const { success, output, error } = result;
  const note = notShown.length > 0 ? `\n[not shown to you: ${notShown.join('; ')}]` : '';
  return JSON.stringify(
    output !== null || error === null
      ? { success, output: `${output ?? ''}${note}`, error }
      : { success, output, error: `${error}${note}` },
  );
}

/** Keeps each medium's bytes beside the timeline; returns the problems (a full disk does not fail the turn). */
export async function keepMedia(orgPath: string, media: readonly ToolMedia[] | undefined): Promise<string[]> {
  const problems: string[] = [];
  for (const item of media ?? []) {
    try {
      await saveAttachment(orgPath, Buffer.from(item.data, 'base64'));
    } catch (error) {
      problems.push(`The ${item.kind} a tool gave could not be kept: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** A message as a model call's record keeps it: its media by reference, never their bytes. */
export function recordedMessage(
  message: ChatMessage,
): Omit<ChatMessage, 'media'> & { media?: Omit<MessageMedia, 'data'>[] } {
  if (!message.media) return message;
  return {
    ...message,
    media: message.media.map(({ kind, mimeType, sha256 }) => ({
      kind,
      mimeType,
      ...(sha256 ? { sha256 } : {}),
    })),
  };
}
