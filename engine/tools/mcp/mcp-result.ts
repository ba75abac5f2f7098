import type { Redaction } from '../../secrets/redactor';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sha256Of } from '../../timeline/attachments';
import { toolFailure, toolSuccess, type ToolMedia, type ToolOutcome } from '../tool-result';

/** What a tool result may hold of an MCP answer; more is cut (the model's context is not a file store). */
export const MCP_RESULT_MAX_CHARS = 64 * 1024;

type ContentItem = CallToolResult['content'][number];

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

/** An image or sound item with its bytes kept: its reference in the words, its bytes apart. */
function mediaOf(item: Extract<ContentItem, { type: 'image' | 'audio' }>): ToolMedia {
  const bytes = Buffer.from(item.data, 'base64');
  return {
    kind: item.type,
    mimeType: item.mimeType,
    data: bytes.toString('base64'),
    bytes: bytes.length,
    sha256: sha256Of(bytes),
  };
}

/** One content item in words: text as it is; images, audio and resources as references, never their bytes. */
function describeItem(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return `[${item.type}: ${item.mimeType}, ${base64Bytes(item.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${item.uri}${item.name ? ` (${item.name})` : ''}${item.mimeType ? `, ${item.mimeType}` : ''}${item.description ? ` — ${item.description}` : ''}]`;
    case 'resource': {
      const { resource } = item;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${base64Bytes(blob)} bytes, not shown]`;
    }
    default:
      return `[${(item as { type: string }).type} content, not shown]`;
  }
}

/**
 * An MCP tool's answer in the shape every tool result has (`{ success, output, error }`): its content
 * items in order (structured content as JSON when there is no text), an `isError` answer as a failure.
 * Images and sounds are referred to in the words and kept whole beside them (`attachments`, `media`);
 * structured content is kept as given (`structured`) when it is not too long. A long answer is cut after it is redacted.
 */
export function mcpToolResult(result: CallToolResult, redaction: Redaction): ToolOutcome {
  const content = result.content ?? [];
  const parts = content.map(describeItem);
  const structuredText =
    result.structuredContent === undefined ? undefined : JSON.stringify(result.structuredContent);
  if (!content.some((item) => item.type === 'text') && structuredText !== undefined)
    parts.push(structuredText);
  let text = parts.join('\n');
  if (text.length > MCP_RESULT_MAX_CHARS)
    text = `${redaction.cutText(text, MCP_RESULT_MAX_CHARS)}\n[cut: the answer had ${text.length} characters]`;
  const media = content.flatMap((item) =>
    item.type === 'image' || item.type === 'audio' ? [mediaOf(item)] : [],
  );
  const base = result.isError
    ? toolFailure(text === '' ? 'the tool reported an error' : text)
    : toolSuccess(text);
  return {
    ...base,
    ...(media.length > 0
      ? {
          attachments: media.map(({ kind, mimeType, bytes, sha256 }) => ({
            kind,
            mime_type: mimeType,
            bytes,
            sha256,
          })),
          media,
        }
      : {}),
    ...(structuredText !== undefined && structuredText.length <= MCP_RESULT_MAX_CHARS
      ? { structured: result.structuredContent }
      : {}),
  };
}
