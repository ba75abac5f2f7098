import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { cliConfigDir } from '../../cli/test-support/run-cli';
import { CONFIG_DIR_VARIABLE } from '../../trust/trust-file-location';
import { REPO_ROOT, resume, tempOrgs } from '../../run/test-support/temp-org';
import { startEndlessServer } from './test-support/endless-server';
import { lemming, trustOrg } from './test-support/mcp-cli';
import { referenceServers } from './test-support/reference-servers';

const orgs = tempOrgs();
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  orgs.cleanup();
});

const MB = 1024 * 1024;

/** The resident memory of a process now, in bytes (ps, on Linux and macOS). */
async function residentBytes(pid: number): Promise<number | null> {
  const said = await promisify(execFile)('ps', ['-o', 'rss=', '-p', String(pid)]).catch(() => null);
  const kib = Number(said?.stdout.trim());
  return said && Number.isFinite(kib) && kib > 0 ? kib * 1024 : null;
}

/**
 * `lemming call` in a process of its own, its resident memory sampled while it runs: killed as soon as it
 * passes `limitBytes`, so an engine that buffers without end fails the test quickly rather than the machine.
 */
async function callMeasured(args: readonly string[], limitBytes: number) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'lemming.mjs'), 'call', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', [CONFIG_DIR_VARIABLE]: cliConfigDir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));
  let peakBytes = 0;
  while (running) {
    const bytes = await residentBytes(child.pid!);
    if (bytes !== null) peakBytes = Math.max(peakBytes, bytes);
    if (peakBytes > limitBytes) child.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { code: await exited, stdout, stderr, peakBytes };
}

/** An org whose agent ada may use the endless server's tools, trusted as it is. */
async function endlessOrg(port: number, network = { enabled: true }): Promise<string> {
  const org = orgs.build({
    'lemming/config/mcp.json': {
      mcpServers: { endless: { url: `http://127.0.0.1:${port}/mcp`, call_timeout_ms: 60_000 } },
    },
    'lemming/config/policy.json': { network: { ...network, private_hosts: [`127.0.0.1:${port}`] } },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:endless', 'mcp__endless__echo'] },
    }),
  });
  return trustOrg(org);
}

describe('MCP servers over HTTP', () => {
  it.each(['events', 'json'] as const)(
    'an endless answer (%s) ends the call with a clear error and the engine stays under 300 MB',
    { timeout: 90_000 },
    async (as) => {
      const { child, port } = await startEndlessServer();
      children.push(child);
      const org = await endlessOrg(port);
      const started = Date.now();
      const call = await callMeasured([org, 'ada', 'mcp__endless__flood', JSON.stringify({ as })], 300 * MB);
      expect(call.peakBytes, 'the engine held the answer').toBeLessThan(300 * MB);
      expect(Date.now() - started, 'the call waited for its timeout').toBeLessThan(45_000);
      expect(call.stdout + call.stderr).toMatch(
        /mcp__endless__flood failed: the server's answer went past 16 MB and was stopped/,
      );
      expect(JSON.parse(call.stdout)).toMatchObject({ failure: { kind: 'bad_response' } });
    },
  );

  it(
    'the cap is per answer: a stream of many whole events past it, then the answer, arrives',
    { timeout: 60_000 },
    async () => {
      const { child, port } = await startEndlessServer();
      children.push(child);
      const org = await endlessOrg(port);
      const call = await lemming(['call', org, 'ada', 'mcp__endless__flood', '{"as": "many"}']);
      expect(call.stdout, call.stderr).toContain('all of it arrived');
      const echo = await lemming(['call', org, 'ada', 'mcp__endless__echo', '{"message": "small"}']);
      expect(echo.stdout).toContain('Echo: small');
    },
  );

  it(
    "with the org's internet access off, agents do not reach an HTTP server: it is not started, and its card and tools say why",
    { timeout: 60_000 },
    async () => {
      const { child, port, requests } = await startEndlessServer();
      children.push(child);
      const org = await endlessOrg(port, { enabled: false });
      const listed = await lemming(['connectors', org]);
      expect(listed.stdout).toMatch(/not ready\s+endless \(mcp:endless\)/);
      expect(listed.stdout).toMatch(/status: network_off/);
      const call = await lemming(['call', org, 'ada', 'mcp__endless__echo', '{"message": "out"}']);
      expect(JSON.parse(call.stdout)).toMatchObject({
        success: false,
        error: expect.stringMatching(
          /the MCP server endless is not started: network access is off for this org/,
        ),
      });
      expect(requests()).toEqual([]);

      writeFileSync(
        join(org, 'lemming/config/policy.json'),
        JSON.stringify({ network: { enabled: true, private_hosts: [`127.0.0.1:${port}`] } }),
      );
      await trustOrg(org);
      const allowed = await lemming(['call', org, 'ada', 'mcp__endless__echo', '{"message": "out"}']);
      expect(allowed.stdout).toContain('Echo: out');
    },
  );

  it('a stdio server is a program, not a network tool: the switch does not stop it, and its card says so', async () => {
    const org = orgs.build({
      'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
    });
    await trustOrg(org);
    const listed = await lemming(['connectors', org]);
    expect(listed.stdout).toMatch(/ready\s+everything \(mcp:everything\)/);
    expect(listed.stdout).toContain(
      "Turning the org's internet access off does not stop it: it is a program, and reaches whatever this computer can.",
    );
  });
});
