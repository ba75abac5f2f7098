import type { ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { callOnce, lemming, SCRIPTED_MODELS, trustOrg } from './test-support/mcp-cli';
import { startEndlessServer } from './test-support/endless-server';
import { legacySseServer } from './test-support/legacy-sse-server';
import { refusesNothing } from '../../api/grant-refusal';
import { McpHttpServer } from './mcp-config';
import { McpServer } from './mcp-server';

const orgs = tempOrgs();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  orgs.cleanup();
});

describe('a legacy SSE server', () => {
  it(
    'works in a turn, whether its entry says "type": "sse" or names only its URL; a bad entry beside it is its own card’s problem',
    { timeout: 60_000 },
    async () => {
      const port = await legacySseServer(children);
      const url = `http://127.0.0.1:${port}/sse`;
      const org = orgs.build({
        'lemming/config/models.json': SCRIPTED_MODELS,
        'lemming/config/mcp.json': {
          servers: {
            legacy: { type: 'sse', url },
            guessed: { url },
            broken: { type: 'sse', command: 'npx' },
          },
        },
        'lemming/config/policy.json': { network: { enabled: true, private_hosts: [`127.0.0.1:${port}`] } },
        'script.json': callOnce('mcp__legacy__echo', { message: 'over legacy SSE' }),
        'agents/ada/resume.json': resume('ada', {
          permissions: {
            read_outboxes: [],
            tools: ['mcp__legacy__echo', 'mcp__guessed__echo', 'mcp__broken__run'],
          },
        }),
      });
      await trustOrg(org);

      const listed = await lemming(['connectors', org]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^ {2}ready +legacy \(mcp:legacy\)$/m);
      expect(listed.stdout).toMatch(/^ {2}ready +guessed \(mcp:guessed\)$/m);
      expect(listed.stdout).toContain('tool mcp__guessed__echo');
      expect(listed.stdout).toMatch(/not ready\s+broken \(mcp:broken\)/);
      expect(listed.stdout).toMatch(
        /problem: lemming\/config\/mcp\.json:\d+:\d+ \(servers\.broken\.type\): type "sse" reaches a server at a URL/,
      );

      const tools = await lemming(['tools', org, 'ada', '--json']);
      const verdicts = (
        JSON.parse(tools.stdout) as {
          tools: { name: string; available: boolean; layers: { passed: boolean; reason: string }[] }[];
        }
      ).tools;
      expect(verdicts.find((tool) => tool.name === 'mcp__legacy__echo')?.available).toBe(true);
      expect(
        verdicts.find((tool) => tool.name === 'mcp__broken__run')?.layers.find((layer) => !layer.passed)
          ?.reason,
      ).toMatch(
        /^the MCP server broken is not started: its entry in lemming\/config\/mcp\.json is not valid \(lemming\/config\/mcp\.json:\d+:\d+ \(servers\.broken\.type\): type "sse" reaches a server at a URL/,
      );

      const run = await lemming(['run', org, '--ticks', '1', '--approve', 'mcp__legacy__echo']);
      expect(run.code, run.stderr).toBe(0);
      const timeline = await lemming(['timeline', org, '--kind', 'tool_result', '--json']);
      const results = (
        JSON.parse(timeline.stdout) as {
          events: { event: { result: { success: boolean; output: string } } }[];
        }
      ).events.map(({ event }) => event.result);
      expect(results).toEqual([expect.objectContaining({ success: true, output: 'Echo: over legacy SSE' })]);

      const called = await lemming(['call', org, 'ada', 'mcp__guessed__echo', '{"message": "guessed"}']);
      expect(called.stdout).toContain('Echo: guessed');
    },
  );

  it(
    'named as Streamable HTTP, it is said in plain words not to answer as one; what it sent back is not shown',
    { timeout: 60_000 },
    async () => {
      const port = await legacySseServer(children);
      const org = orgs.build({
        'lemming/config/mcp.json': {
          mcpServers: {
            wrong: { type: 'http', url: `http://127.0.0.1:${port}/sse` },
            nowhere: { url: `http://127.0.0.1:${port}/nothing-here` },
          },
        },
        'lemming/config/policy.json': { network: { enabled: true, private_hosts: [`127.0.0.1:${port}`] } },
      });
      await trustOrg(org);
      const listed = await lemming(['connectors', org]);
      expect(listed.stdout).toContain(
        `status: failed — it could not be started: the address http://127.0.0.1:${port}/sse does not answer as an MCP server over Streamable HTTP (it answered HTTP 404)`,
      );
      expect(listed.stdout).toContain(
        `status: failed — it could not be started: the address http://127.0.0.1:${port}/nothing-here does not answer as an MCP server over Streamable HTTP or legacy SSE (it answered HTTP 404)`,
      );
      expect(listed.stdout).not.toMatch(/Cannot (POST|GET)|<!DOCTYPE|<html/i);
    },
  );

  it(
    'a web page at the address is said not to answer as an MCP server, by either transport; the page is not shown',
    { timeout: 60_000 },
    async () => {
      const page = createHttpServer((_, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html>Welcome</html>'),
      );
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      const { port } = page.address() as AddressInfo;
      try {
        const org = orgs.build({
          'lemming/config/mcp.json': {
            mcpServers: {
              streamable: { type: 'http', url: `http://127.0.0.1:${port}/` },
              legacy: { type: 'sse', url: `http://127.0.0.1:${port}/` },
            },
          },
          'lemming/config/policy.json': { network: { enabled: true, private_hosts: [`127.0.0.1:${port}`] } },
        });
        await trustOrg(org);
        const listed = await lemming(['connectors', org]);
        expect(listed.stdout).toContain(
          `it could not be started: the address http://127.0.0.1:${port}/ does not answer as an MCP server over Streamable HTTP (it answered with text/html, not MCP)`,
        );
        expect(listed.stdout).toContain(
          `it could not be started: the address http://127.0.0.1:${port}/ does not answer as an MCP server over legacy SSE (it answered, but not with an event stream)`,
        );
        expect(listed.stdout).not.toMatch(/Welcome|<html/i);
      } finally {
        page.close();
      }
    },
  );
});

describe('a legacy SSE server goes through the same checks as any HTTP server', () => {
  it('on loopback it is refused until the org names its host', { timeout: 60_000 }, async () => {
    const { child, port } = await startEndlessServer('legacy-sse');
    children.push(child);
    const org = orgs.build({
      'lemming/config/mcp.json': {
        mcpServers: { old: { type: 'sse', url: `http://127.0.0.1:${port}/sse` } },
      },
      'lemming/config/policy.json': { network: { enabled: true } },
    });
    await trustOrg(org);
    const listed = await lemming(['connectors', org]);
    expect(listed.stdout).toMatch(
      /status: failed — it could not be started: .*127\.0\.0\.1.*agents may not reach it/,
    );
  });

  it(
    'an answer on its event stream past the cap ends the call at once with the reason',
    { timeout: 60_000 },
    async () => {
      const { child, port } = await startEndlessServer('legacy-sse');
      children.push(child);
      const org = orgs.build({
        'lemming/config/mcp.json': {
          mcpServers: { old: { type: 'sse', url: `http://127.0.0.1:${port}/sse`, call_timeout_ms: 60_000 } },
        },
        'lemming/config/policy.json': { network: { enabled: true, private_hosts: [`127.0.0.1:${port}`] } },
        'agents/ada/resume.json': resume('ada', {
          permissions: { read_outboxes: [], tools: ['group:mcp:old'] },
        }),
      });
      await trustOrg(org);
      const started = Date.now();
      const call = await lemming(['call', org, 'ada', 'mcp__old__flood', '{}']);
      expect(Date.now() - started, 'the call waited for its timeout').toBeLessThan(30_000);
      expect(call.stdout + call.stderr).toMatch(/the server's answer went past 16 MB and was stopped/);
    },
  );
});

/** The endless SSE server on `port` as one McpServer of an org, restarted quickly after a crash. */
function sseServer(org: string, port: number): McpServer {
  return new McpServer('old', McpHttpServer.parse({ type: 'sse', url: `http://127.0.0.1:${port}/sse` }), {
    orgPath: org,
    secret: () => undefined,
    refusal: refusesNothing,
    redact: (text) => text,
    privateHosts: [`127.0.0.1:${port}`],
    restartDelayMs: 50,
  });
}

async function startedAgain(server: McpServer): Promise<void> {
  const end = Date.now() + 20_000;
  while (
    server.status !== 'running' ||
    server.happenings.every((happening) => !/restarted/.test(happening.message))
  ) {
    if (Date.now() > end) throw new Error(`not started again: ${JSON.stringify(server.happenings)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a legacy SSE server whose event stream was cut', () => {
  it(
    'by the server ending it: the waiting call ends, and the server is started again',
    { timeout: 60_000 },
    async () => {
      const { child, port } = await startEndlessServer('legacy-sse');
      children.push(child);
      const server = sseServer(orgs.build({}), port);
      try {
        await server.start();
        await expect(server.callTool('hang_up', {})).rejects.toThrow(
          /^the server's event stream broke before it answered/,
        );
        expect(server.happenings.map((happening) => happening.message)).toContain(
          'its event stream was cut: the server ended it',
        );
        await startedAgain(server);
        const echoed = await server.callTool('echo', { message: 'after hanging up' });
        expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: after hanging up' }]);
      } finally {
        await server.stop();
      }
    },
  );

  it(
    'by an answer past the cap: the server is started again, and answers the next call',
    { timeout: 60_000 },
    async () => {
      const { child, port } = await startEndlessServer('legacy-sse');
      children.push(child);
      const server = sseServer(orgs.build({}), port);
      try {
        await server.start();
        expect(server.status).toBe('running');
        await expect(server.callTool('flood', {})).rejects.toThrow(/went past 16 MB and was stopped/);
        await startedAgain(server);
        expect(server.happenings.map((happening) => happening.message)).toContainEqual(
          expect.stringMatching(/^its event stream was cut: the server's answer went past 16 MB/),
        );
        const echoed = await server.callTool('echo', { message: 'again' });
        expect(echoed.content).toEqual([{ type: 'text', text: 'Echo: again' }]);
      } finally {
        await server.stop();
      }
    },
  );
});
