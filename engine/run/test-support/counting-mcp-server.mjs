// An MCP server over stdio that counts the calls of its one tool, `ring_bell`: each call adds a line to
// the file COUNT_FILE names. The call that makes the count HANG_AT never answers, so a test can kill
// the engine while that call is under way.
import { appendFileSync, readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const countFile = process.env.COUNT_FILE;
if (!countFile) throw new Error('COUNT_FILE is not set');
const hangAt = Number(process.env.HANG_AT ?? 0);

const server = new McpServer({ name: 'bell', version: '1.0.0' });
server.registerTool(
  'ring_bell',
  { description: 'Rings the bell in a room.', inputSchema: { room: z.string() } },
  async ({ room }) => {
    appendFileSync(countFile, `${room}\n`);
    const count = readFileSync(countFile, 'utf8').split('\n').filter(Boolean).length;
    if (count === hangAt) await new Promise(() => {});
    return { content: [{ type: 'text', text: `rang in the ${room}` }] };
  },
);
await server.connect(new StdioServerTransport());
