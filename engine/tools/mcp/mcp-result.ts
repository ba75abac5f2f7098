import type { Redaction } from '../../secrets/redactor';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolFailure, toolSuccess, type ToolResult } from '../tool-result';

/** What a tool result may hold of an MCP answer; more is cut (the model's context is not a file store). */
export const MCP_RESULT_MAX_CHARS = 64 * 1024;

type ContentItem = CallToolResult['content'][number];

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

/** One content item in words: text as it is; images, audio and resources as references, never their bytes. */
function describeItem(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
      return `[image: ${item.mimeType}, ${base64Bytes(item.data)} bytes, not shown]`;
    case 'audio':
      return `[audio: ${item.mimeType}, ${base64Bytes(item.data)} bytes, not shown]`;
    case 'resource_link':
      return `[resource: ${item.uri}${item.name ? ` (${item.name})` : ''}${item.mimeType ? `, ${item.mimeType}` : ''}]`;
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
 * A long answer is cut after it is redacted.
 */
export function mcpToolResult(result: CallToolResult, redaction: Redaction): ToolResult {
  const parts = (result.content ?? []).map(describeItem);
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  let text = parts.join('\n');
  if (text.length > MCP_RESULT_MAX_CHARS)
    text = `${redaction.cutText(text, MCP_RESULT_MAX_CHARS)}\n[cut: the answer had ${text.length} characters]`;
  if (result.isError) return toolFailure(text === '' ? 'the tool reported an error' : text);
  return toolSuccess(text);
}
