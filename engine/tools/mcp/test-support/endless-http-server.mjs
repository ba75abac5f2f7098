// An MCP server over Streamable HTTP (the official SDK's, stateless) on a loopback port it prints
// ("listening on <port>", then "request <method>" for every request it gets), with one hostile tool: `flood` never finishes its answer. With `as: "events"`
// it opens a server-sent event and writes its data without end; with `as: "json"` it answers
// application/json and never closes the object. With `as: "many"` it does finish: 24 MB of small log
// events first (each whole), then its answer. `echo` answers as any server would.
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function mcpServer() {
  const server = new McpServer({ name: 'endless', version: '1.0.0' });
  server.registerTool(
    'flood',
    { description: 'Answers without end.', inputSchema: { as: z.enum(['events', 'json', 'many']) } },
    async () => ({ content: [{ type: 'text', text: 'never sent' }] }),
  );
  server.registerTool(
    'echo',
    { description: 'Says the message back.', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }),
  );
  return server;
}

const piece = Buffer.alloc(64 * 1024, 'x');

function flood(response, id, as) {
  if (as === 'many') return manyEvents(response, id);
  response.writeHead(200, { 'content-type': as === 'json' ? 'application/json' : 'text/event-stream' });
  const opening = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
  response.write(as === 'json' ? opening : `event: message\ndata: ${opening}`);
  let open = true;
  response.on('close', () => (open = false));
  const more = () => {
    while (open && response.write(piece));
  };
  response.on('drain', more);
  more();
}

function manyEvents(response, id) {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const log = JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: 'info', data: 'x'.repeat(64 * 1024) },
  });
  for (let event = 0; event < 384; event += 1) response.write(`event: message\ndata: ${log}\n\n`);
  const answer = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'all of it arrived' }] } };
  response.end(`event: message\ndata: ${JSON.stringify(answer)}\n\n`);
}

const http = createServer(async (request, response) => {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  const body = text === '' ? undefined : JSON.parse(text);
  console.log(`request ${body?.method ?? request.method}`);
  if (body?.method === 'tools/call' && body.params?.name === 'flood')
    return flood(response, body.id, body.params.arguments?.as);
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
});
http.listen(0, '127.0.0.1', () => console.log(`listening on ${http.address().port}`));
