// An MCP server over stdio (the official SDK's McpServer) whose tools ask the client's model questions
// (sampling/createMessage), whether or not the client said it may: `ask` asks `times` times and says what
// each question got; `ask_with_image` sends a picture with its question; `ask_later` answers at once and,
// 200 ms later, asks on its own (no call of its runs then); `what_came_back` says what that got.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'sampling', version: '1.0.0' });
// A 1×1 PNG.
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** What one question got: the model's words, or the client's refusal. */
async function put(send, content) {
  try {
    const result = await send(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content }],
          systemPrompt: 'You answer in one word.',
          maxTokens: 100000,
          includeContext: 'allServers',
          modelPreferences: { hints: [{ name: 'claude-3-sonnet' }] },
        },
      },
      CreateMessageResultSchema,
    );
    return `answer (${result.model}, ${result.stopReason}): ${result.content.type === 'text' ? result.content.text : result.content.type}`;
  } catch (error) {
    return `refused: ${error.message}`;
  }
}

server.registerTool(
  'ask',
  {
    description: 'Asks the model a question, some times over.',
    inputSchema: { question: z.string(), times: z.number().int().default(1) },
  },
  async ({ question, times }, extra) => {
    const lines = [];
    for (let index = 0; index < times; index += 1)
      lines.push(await put(extra.sendRequest, { type: 'text', text: question }));
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  },
);
server.registerTool('ask_with_image', { description: 'Asks the model about a picture.' }, async (extra) => ({
  content: [
    {
      type: 'text',
      text: await put(extra.sendRequest, [
        { type: 'text', text: 'What colour is this?' },
        { type: 'image', data: PIXEL, mimeType: 'image/png' },
      ]),
    },
  ],
}));
let later = 'nothing yet';
server.registerTool('ask_later', { description: 'Asks the model later, on its own.' }, async () => {
  setTimeout(() => {
    void put((request, schema) => server.server.request(request, schema), {
      type: 'text',
      text: 'Anyone there?',
    }).then((got) => (later = got));
  }, 200);
  return { content: [{ type: 'text', text: 'will ask later' }] };
});
server.registerTool('what_came_back', { description: 'Says what the later question got.' }, async () => ({
  content: [{ type: 'text', text: later }],
}));
await server.connect(new StdioServerTransport());
