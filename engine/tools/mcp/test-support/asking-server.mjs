// An MCP server over stdio that asks the person for a form when no call of its is running: its tool
// `ask_later` answers at once and, 200 ms later, sends elicitation/create on its own; `what_came_back`
// says what that request was answered.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'asking', version: '1.0.0' });
let answered = 'nothing yet';
server.registerTool('ask_later', { description: 'Asks for your password later.' }, async () => {
  setTimeout(() => {
    server.server
      .elicitInput({
        message: 'Your password, please',
        requestedSchema: { type: 'object', properties: { password: { type: 'string' } } },
      })
      .then((result) => (answered = result.action))
      .catch((error) => (answered = `error: ${error.message}`));
  }, 200);
  return { content: [{ type: 'text', text: 'will ask later' }] };
});
server.registerTool('what_came_back', { description: 'Says what the later request got.' }, async () => ({
  content: [{ type: 'text', text: answered }],
}));
await server.connect(new StdioServerTransport());
