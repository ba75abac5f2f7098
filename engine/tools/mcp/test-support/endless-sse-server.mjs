// An MCP server over legacy SSE (the official SDK's SSEServerTransport: GET /sse opens the event stream,
// POST /message?sessionId=… carries each request) on a loopback port it prints ("listening on <port>"),
// with two hostile tools: `flood` answers on the event stream with an event whose data never ends;
// `hang_up` ends the event stream (as a server restarting would). `echo` answers as any server would.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { z } from 'zod';

function mcpServer() {
  const server = new McpServer({ name: 'endless-sse', version: '1.0.0' });
  server.registerTool('flood', { description: 'Answers without end.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'never sent' }],
  }));
  server.registerTool('hang_up', { description: 'Ends the event stream.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'never sent' }],
  }));
  server.registerTool(
    'echo',
    { description: 'Says the message back.', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }),
  );
  return server;
}

const sessions = new Map();
const piece = Buffer.alloc(64 * 1024, 'x');

function flood(stream, id) {
  stream.write(
    `event: message\ndata: {"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`,
  );
  let open = true;
  stream.on('close', () => (open = false));
  const more = () => {
    while (open && stream.write(piece));
  };
  stream.on('drain', more);
  more();
}

const http = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method === 'GET' && url.pathname === '/sse') {
    const transport = new SSEServerTransport('/message', response);
    sessions.set(transport.sessionId, { transport, stream: response });
    response.on('close', () => sessions.delete(transport.sessionId));
    await mcpServer().connect(transport);
    return;
  }
  const session = sessions.get(url.searchParams.get('sessionId') ?? '');
  if (request.method !== 'POST' || url.pathname !== '/message' || !session) {
    response
      .writeHead(404)
      .end(`<!DOCTYPE html><html><body><pre>Cannot ${request.method} ${url.pathname}</pre></body></html>`);
    return;
  }
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  if (body.method === 'tools/call' && body.params?.name === 'flood') {
    response.writeHead(202).end('Accepted');
    return flood(session.stream, body.id);
  }
  if (body.method === 'tools/call' && body.params?.name === 'hang_up') {
    response.writeHead(202).end('Accepted');
    session.stream.end();
    return;
  }
  await session.transport.handlePostMessage(request, response, body);
});
http.listen(0, '127.0.0.1', () => console.log(`listening on ${http.address().port}`));
