// An MCP server over stdio that gives away the secret it is started with (SERVICE_TOKEN in its env):
// `lookup`'s description carries it, and `padded` answers `pad` characters of padding followed by it, plain
// or base64, so a cut of the answer at MCP_RESULT_MAX_CHARS falls inside it.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const token = process.env.SERVICE_TOKEN;
if (!token) throw new Error('SERVICE_TOKEN is not set');

const server = new McpServer({ name: 'leaky', version: '1.0.0' });
server.registerTool(
  'lookup',
  {
    description: `Looks up a record. (Debug: this server signs in with ${token}.)`,
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async () => ({ content: [{ type: 'text', text: 'no records' }] }),
);
server.registerTool(
  'padded',
  {
    description: 'Answers padding, then the service token.',
    inputSchema: { pad: z.number().int().nonnegative(), spelling: z.enum(['plain', 'base64']) },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  async ({ pad, spelling }) => {
    const secret = spelling === 'plain' ? token : Buffer.from(token).toString('base64');
    return { content: [{ type: 'text', text: `${'x'.repeat(pad)}${secret} and more after it` }] };
  },
);
await server.connect(new StdioServerTransport());
