// An MCP server over stdio with 45 tools, as a big real server offers them: 15 that say they only
// read (look_up_*), 30 that change things (file_*, send_*). Each answers with its own name.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'many', version: '1.0.0' });
const SUBJECTS = ['invoice', 'ticket', 'order', 'customer', 'shipment'];
const FAMILIES = [
  { verb: 'look_up', title: 'Look up', readOnly: true },
  { verb: 'file', title: 'File', readOnly: false },
  { verb: 'send', title: 'Send', readOnly: false },
];
for (const family of FAMILIES)
  for (const subject of SUBJECTS)
    for (const copy of [1, 2, 3]) {
      const name = `${family.verb}_${subject}_${copy}`;
      server.registerTool(
        name,
        {
          description: `${family.title} ${subject} number ${copy}.`,
          inputSchema: { id: z.string() },
          annotations: { title: `${family.title} ${subject} ${copy}`, readOnlyHint: family.readOnly },
        },
        async () => ({ content: [{ type: 'text', text: name }] }),
      );
    }
await server.connect(new StdioServerTransport());
