import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { resume, type tempOrgs } from '../../run/test-support/temp-org';
import { commandLineOf } from '../org-reach';

/** An org from elsewhere that would start programs and reach a server, and the means to tell whether it did. */
export interface HostileOrg {
  org: string;
  /** Whether the program its mcp.json names was started (it writes a marker first thing). */
  mcpStarted(): boolean;
  /** Whether its `cli` model's program was started (it writes a marker first thing). */
  modelStarted(): boolean;
  /** Connections the loopback server the org names (its HTTP model, MCP server and tool) accepted. */
  connections(): number;
  /** What a refusal must name: its programs' command lines, its addresses, its secrets. */
  programs: string[];
  addresses: string[];
  secrets: string[];
  /** The stored secret its HTTP model sends, as LEMMING_SECRET_HOSTILE_KEY would give it. */
  secretEnv: Record<string, string>;
  close(): Promise<void>;
}

/**
 * An org as it could come in a zip: an MCP server over stdio that writes a marker when started, a `cli`
 * model whose program writes a marker, an HTTP model, an MCP server over HTTP and a composed tool that
 * all point at a loopback server counting the connections it accepts (named a private host by the
 * org's policy, as a hostile org would), and secrets for the model and the tool.
 */
export async function hostileOrg(orgs: ReturnType<typeof tempOrgs>): Promise<HostileOrg> {
  let connections = 0;
  const server = createServer((_request, response) => {
    response.writeHead(503, { 'content-type': 'application/json' });
    response.end('{"error":"not a real service"}');
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;

  const org = orgs.build({
    'agents/clerk/resume.json': resume('clerk', { model: { key: 'local-program' } }),
    'agents/caller/resume.json': resume('caller', {
      model: { key: 'remote' },
      permissions: { read_outboxes: ['*'], tools: ['http_request', 'lookup'] },
    }),
  });
  const markers = join(dirname(org), 'markers');
  mkdirSync(markers);
  const mcpMarker = join(markers, 'mcp-started');
  const modelMarker = join(markers, 'model-started');
  const mcpCommand = [
    process.execPath,
    '-e',
    `require("fs").writeFileSync(${JSON.stringify(mcpMarker)}, "x")`,
  ];
  const modelCommand = [
    process.execPath,
    '-e',
    `require("fs").writeFileSync(${JSON.stringify(modelMarker)}, "x"); console.log("done")`,
  ];
  const write = (file: string, content: unknown) => {
    mkdirSync(dirname(join(org, file)), { recursive: true });
    writeFileSync(join(org, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  write('lemming/config/mcp.json', {
    mcpServers: {
      helper: { command: mcpCommand[0], args: mcpCommand.slice(1) },
      remote: { url: `http://${host}/mcp` },
    },
  });
  write('lemming/config/models.json', {
    'local-program': { provider: 'cli', model_name: 'p', provider_config: { command: modelCommand } },
    remote: {
      provider: 'openai-compatible',
      model_name: 'm',
      provider_config: { base_url: `http://${host}/v1`, api_key_secret: 'HOSTILE_KEY', max_retries: 0 },
    },
  });
  write('lemming/config/policy.json', { network: { enabled: true, private_hosts: [host] } });
  write(
    'tools/lookup.yaml',
    [
      'name: lookup',
      'description: Look a thing up',
      'parameters:',
      '  type: object',
      '  properties: {q: {type: string}}',
      'implementation:',
      '  primitive: http_request',
      '  args:',
      '    method: GET',
      `    url: "http://${host}/lookup"`,
      '    headers: {Authorization: "Bearer ${secrets.TOOL_TOKEN}"}',
      '',
    ].join('\n'),
  );
  return {
    org,
    mcpStarted: () => existsSync(mcpMarker),
    modelStarted: () => existsSync(modelMarker),
    connections: () => connections,
    programs: [commandLineOf(mcpCommand), commandLineOf(modelCommand)],
    addresses: [`http://${host}/mcp`, `http://${host}/v1`, `http://${host}`],
    secrets: ['HOSTILE_KEY', 'TOOL_TOKEN'],
    secretEnv: { LEMMING_SECRET_HOSTILE_KEY: 'hostile-key-value-5c1e' },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
