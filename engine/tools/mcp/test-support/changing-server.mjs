// A small MCP server over stdio whose tool list changes: calling `grow` adds the tool `extra`
// (the SDK's McpServer sends notifications/tools/list_changed when a tool is added after connecting).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'changing', version: '1.0.0' });
server.registerTool('grow', { description: 'Adds the tool extra.' }, async () => {
  server.registerTool('extra', { description: 'A tool that appeared later.' }, async () => ({
    content: [{ type: 'text', text: 'extra ran' }],
  }));
  return { content: [{ type: 'text', text: 'grown' }] };
});
await server.connect(new StdioServerTransport());
