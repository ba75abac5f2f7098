import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { toolFailure } from '../tool-result';
import type { ToolSpec } from '../tool-spec';
import { mcpToolResult } from './mcp-result';
import type { McpServer } from './mcp-server';
import { mcpToolName } from './mcp-tools';

/** The server tool name the resource reader takes: `mcp__<server>__read_resource`. */
export const READ_RESOURCE = 'read_resource';

/** Resource types read as what they are: an image or a sound goes to the model that takes it. */
const MEDIA_KIND = (mimeType: string | undefined): 'image' | 'audio' | null =>
  mimeType?.startsWith('image/') ? 'image' : mimeType?.startsWith('audio/') ? 'audio' : null;

/** A resource read, as a tool answer: its text as it is, images and sounds kept, other bytes referred to. */
function asToolAnswer({ contents }: ReadResourceResult): CallToolResult {
  return {
    content: contents.map((content): CallToolResult['content'][number] => {
      const kind = MEDIA_KIND(content.mimeType);
      if ('blob' in content && typeof content.blob === 'string' && kind && content.mimeType)
        return { type: kind, data: content.blob, mimeType: content.mimeType };
      return { type: 'resource', resource: content };
    }),
  };
}

/** The resources a server offers, one line each, for the agent to choose from. */
function listing(server: string, listed: Awaited<ReturnType<McpServer['listResources']>>): string {
  const lines = [
    ...listed.resources.map(
      (resource) =>
        `${resource.uri} — ${resource.title ?? resource.name}${resource.mimeType ? ` (${resource.mimeType})` : ''}${resource.description ? `: ${resource.description}` : ''}`,
    ),
    ...listed.templates.map(
      (template) =>
        `${template.uriTemplate} — ${template.title ?? template.name} (a template: fill in the {names})${template.description ? `: ${template.description}` : ''}`,
    ),
  ];
  return lines.length > 0
    ? `The resources of ${server}:\n${lines.join('\n')}`
    : `${server} lists no resources now.`;
}

/**
 * The resources of one server as one tool agents may be granted (`mcp__<server>__read_resource`, or
 * the server's group): without `uri` it lists them, with one it reads it. The engine's own reader: it
 * only reads, so the built-in approval rule does not ask; the answer is capped and redacted as every
 * MCP answer is.
 */
export function resourceToolSpec(server: McpServer): ToolSpec {
  const name = mcpToolName(server.name, READ_RESOURCE);
  return {
    name,
    kind: 'mcp',
    title: `Read the resources of ${server.name}`,
    definition: {
      name,
      description: `Lists the resources (files, records, documents) the MCP server ${server.name} offers, or reads one. Call it without uri for the list; with a uri from the list to read that resource.`,
      parameters: {
        type: 'object',
        properties: {
          uri: { type: 'string', description: 'The URI of the resource to read; leave out to list them.' },
        },
        additionalProperties: false,
      },
    },
    onlyReads: true,
    async run(args, context) {
      const uri = (args as { uri?: unknown } | null | undefined)?.uri;
      if (uri !== undefined && typeof uri !== 'string') return toolFailure(`${name}: uri must be text`);
      try {
        if (uri === undefined || uri === '')
          return mcpToolResult(
            {
              content: [
                { type: 'text', text: listing(server.name, await server.listResources(context.signal)) },
              ],
            },
            context.redaction,
          );
        return mcpToolResult(asToolAnswer(await server.readResource(uri, context.signal)), context.redaction);
      } catch (error) {
        return toolFailure(`${name} failed: ${(error as Error).message}`);
      }
    },
  };
}
