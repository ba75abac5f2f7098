import { createServer } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_POLICY } from '../../org/policy-file';
import { refusesNothing } from '../../api/grant-refusal';
import { OrgEngine } from '../../run/org-engine';
import { McpHub } from './mcp-hub';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { referenceServers } from './test-support/reference-servers';
import { lemming, SCRIPTED_MODELS, callOnce, trustOrg } from './test-support/mcp-cli';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { until } from '../../../test/test-support/until';
import { filesUnder } from '../../../test/test-support/files-under';

const orgs = tempOrgs();
const children: ChildProcess[] = [];
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  for (const child of children.splice(0)) child.kill('SIGKILL');
  orgs.cleanup();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

describe('MCP server lifecycle', () => {
  it(
    'a server that never starts shows its error in the card and in lemming connectors, and its tools say why',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/mcp.json': {
          mcpServers: {
            missing: { command: 'no-such-mcp-program-here' },
            broken: {
              command: process.execPath,
              args: ['-e', "console.error('bad config: no database'); process.exit(3)"],
            },
            slow: {
              command: process.execPath,
              args: ['-e', 'setTimeout(() => {}, 30000)'],
              start_timeout_ms: 500,
            },
          },
        },
        'agents/ada/resume.json': resume('ada', {
          permissions: { read_outboxes: [], tools: ['mcp__broken__lookup'] },
        }),
      });
      await trustOrg(org);
      const listed = await lemming(['connectors', org]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/not ready\s+missing \(mcp:missing\)/);
      expect(listed.stdout).toMatch(
        /status: failed — its program could not be started \(no-such-mcp-program-here was not found\)/,
      );
      expect(listed.stdout).toMatch(
        /status: failed — it could not be started: .* — it said: bad config: no database/,
      );
      expect(listed.stdout).toMatch(
        /status: failed — it could not be started: it did not start within 0.5 s/,
      );

      const tools = await lemming(['tools', org, 'ada', '--json']);
      const verdict = (
        JSON.parse(tools.stdout) as {
          tools: {
            name: string;
            available: boolean;
            layers: { layer: string; passed: boolean; reason: string }[];
            fix: { summary: string } | null;
          }[];
        }
      ).tools.find((tool) => tool.name === 'mcp__broken__lookup');
      expect(verdict?.available).toBe(false);
      expect(verdict?.layers.find((layer) => !layer.passed)).toMatchObject({
        layer: 'readiness',
        reason: expect.stringMatching(/^the MCP server broken is failed: .*bad config: no database/),
      });
      expect(verdict?.fix?.summary).toMatch(/fix the MCP server broken/);
    },
  );

  it(
    'a server that crashes mid-run is restarted with backoff, and the card shows what happened',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/models.json': SCRIPTED_MODELS,
        'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
        'script.json': callOnce('mcp__everything__echo', { message: 'still here' }),
        'agents/ada/resume.json': resume('ada', {
          permissions: { read_outboxes: [], tools: ['group:mcp:everything'] },
        }),
      });
      const engine = await OrgEngine.open({
        trust: await trustAsIs(org),
        orgPath: org,
        mcpRestartDelayMs: 100,
      });
      engines.push(engine);
      await engine.runTick();
      const server = () => engine.mcp.views().find((view) => view.server === 'everything');
      const before = engine.mcp.serverConfigs().length;
      expect(before).toBe(1);
      const pid = (
        engine.mcp as unknown as { held: Map<string, { server: { pid: number | null } }> }
      ).held.get('everything')?.server.pid;
      expect(pid).toBeGreaterThan(0);
      process.kill(pid!, 'SIGKILL');
      await until(() => server()?.status === 'restarting', 'the crash to be seen');
      await until(() => server()?.status === 'running', 'the restart');
      // 15: the reference server adds its elicitation tools for a client that declares it (and its sampling
      // tool only for one that may ask models, which the person has not allowed here).
      expect(server()?.happenings.map((happening) => happening.message)).toEqual([
        'started with 15 tools',
        expect.stringMatching(/^stopped unexpectedly; restarting in 100 ms \(restart 1 of 5\)$/),
        'started with 15 tools',
        'restarted after a crash',
      ]);
      const report = await engine.runTick();
      expect(report.turns).toEqual([{ agent: 'ada', status: 'completed' }]);
      const results = engine.timeline
        .page({ kinds: ['tool_result'], direction: 'asc', limit: 10 })
        .rows.map((row) => JSON.parse(row.json) as { result: { output: string } });
      expect(results.map((event) => event.result.output)).toEqual(['Echo: still here', 'Echo: still here']);

      // The run stops: the servers stop with it (and start again when next needed).
      engine.releaseRun();
      await engine.stopMcpServers();
      expect(() => process.kill(pid!, 0)).toThrow();
      expect(engine.mcp.views()).toEqual([]);
    },
  );

  it(
    'a Streamable HTTP server on loopback is refused until the org names its host, then works',
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const child = spawn(process.execPath, referenceServers.everythingHttpArgs(), {
        env: { PATH: process.env.PATH ?? '', PORT: String(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      children.push(child);
      await new Promise<void>((resolve) =>
        child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve()),
      );
      const org = orgs.build({
        'lemming/config/mcp.json': { mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp` } } },
        'lemming/config/policy.json': { network: { enabled: true } },
        'agents/ada/resume.json': resume('ada', {
          permissions: { read_outboxes: [], tools: ['group:mcp:remote'] },
        }),
      });
      await trustOrg(org);
      const refused = await lemming(['connectors', org]);
      expect(refused.stdout).toMatch(
        /status: failed — it could not be started: .*127\.0\.0\.1.*agents may not reach it/,
      );

      writeFileSync(
        join(org, 'lemming/config/policy.json'),
        JSON.stringify({ network: { enabled: true, private_hosts: [`127.0.0.1:${port}`] } }),
      );
      // A private host the org may reach is part of what the person trusts: the edit asks again.
      await trustOrg(org);
      const listed = await lemming(['connectors', org]);
      expect(listed.stdout).toMatch(/ready\s+remote \(mcp:remote\)/);
      expect(listed.stdout).toContain('tool mcp__remote__echo');
      const called = await lemming(['call', org, 'ada', 'mcp__remote__echo', '{"message": "over http"}']);
      expect(called.stdout).toContain('Echo: over http');
    },
  );

  it(
    'a secret reaches the server only by name: not in mcp.json, the timeline, logs or results; the server gets a clean environment',
    { timeout: 60_000 },
    async () => {
      const secretValue = 'tok-7f3a9c1e5b2d8f4a6c0e';
      process.env.LEMMING_MCP_LEAK_CHECK = 'parent-only-sentinel-93a1';
      try {
        const org = orgs.build({
          'lemming/config/models.json': SCRIPTED_MODELS,
          'lemming/config/mcp.json': {
            mcpServers: {
              everything: {
                ...referenceServers.everything(),
                env: { SERVICE_TOKEN: '${secrets.SERVICE_TOKEN}' },
              },
            },
          },
          'script.json': callOnce('mcp__everything__get-env', {}),
          'agents/ada/resume.json': resume('ada', {
            permissions: { read_outboxes: [], tools: ['mcp__everything__get-env'] },
          }),
        });
        await trustOrg(org, ['SERVICE_TOKEN']);
        const secrets = join(org, '..', 'secrets');
        mkdirSync(secrets);
        const secretEnv = { LEMMING_SECRETS_FILE: join(secrets, 'secrets.json') };
        const set = await lemming(['secret', 'set', 'SERVICE_TOKEN', '--value', secretValue], secretEnv);
        expect(set.code, set.stderr).toBe(0);

        const run = await lemming(
          ['run', org, '--ticks', '1', '--approve', 'mcp__everything__get-env'],
          secretEnv,
        );
        expect(run.code, run.stderr).toBe(0);
        const timeline = await lemming(['timeline', org, '--kind', 'tool_result', '--json']);
        const output = (
          JSON.parse(timeline.stdout) as { events: { event: { result: { output: string } } }[] }
        ).events[0]!.event.result.output;
        // The server had the value (it printed its environment), the agent saw only its name.
        expect(output).toContain('SERVICE_TOKEN');
        expect(output).toContain('[redacted:SERVICE_TOKEN]');
        expect(output).not.toContain('LEMMING_MCP_LEAK_CHECK');
        expect(output).not.toContain('parent-only-sentinel-93a1');

        const touched = filesUnder(org).map((path) => ({
          path,
          text: readFileSync(path).toString('latin1'),
        }));
        expect(touched.some((file) => file.path.endsWith('timeline.sqlite'))).toBe(true);
        for (const file of touched) expect(file.text, file.path).not.toContain(secretValue);
        for (const text of [run.stdout, run.stderr, timeline.stdout]) expect(text).not.toContain(secretValue);
      } finally {
        delete process.env.LEMMING_MCP_LEAK_CHECK;
      }
    },
  );

  it(
    'a credential written into mcp.json is refused with its file, field and line',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/mcp.json': {
          mcpServers: {
            everything: { ...referenceServers.everything(), env: { GITHUB_TOKEN: 'ghp_literal_value' } },
            web: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc' } },
          },
        },
      });
      const listed = await lemming(['connectors', org]);
      expect(listed.stdout).toMatch(
        /lemming\/config\/mcp\.json:\d+:\d+ \(mcpServers\.everything\.env\.GITHUB_TOKEN\): GITHUB_TOKEN holds a credential/,
      );
      expect(listed.stdout).toMatch(
        /lemming\/config\/mcp\.json:\d+:\d+ \(mcpServers\.web\.headers\.Authorization\): Authorization holds a credential/,
      );
    },
  );
});

describe('tools/list_changed', () => {
  it(
    'a server that adds a tool updates its card and the tools agents can have',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/mcp.json': {
          mcpServers: {
            changing: {
              command: process.execPath,
              args: [join(import.meta.dirname, 'test-support', 'changing-server.mjs')],
            },
          },
        },
        'agents/ada/resume.json': resume('ada', {
          permissions: { read_outboxes: [], tools: ['group:mcp:changing'] },
        }),
      });
      const engine = await OrgEngine.open({
        trust: await trustAsIs(org),
        orgPath: org,
      });
      engines.push(engine);
      // As during a run: the servers stay up between calls (a call outside a run stops them after it).
      expect(await engine.claimRun()).toEqual({ ok: true, value: undefined });
      const names = async () =>
        (await engine.explainTools('ada'))
          .filter((verdict) => verdict.available)
          .map((verdict) => verdict.name);
      expect(await names()).toEqual(['mcp__changing__grow']);
      expect(await engine.callTool('ada', 'mcp__changing__grow', {})).toMatchObject({
        success: true,
        output: 'grown',
      });
      const card = () => engine.mcp.views().find((view) => view.server === 'changing');
      await until(() => card()?.tools.length === 2, 'the new tool on the card');
      expect(card()?.happenings.at(-1)?.message).toBe('its tools changed (2 now)');
      expect(await names()).toEqual(['mcp__changing__grow', 'mcp__changing__extra']);
      expect(await engine.callTool('ada', 'mcp__changing__extra', {})).toMatchObject({ output: 'extra ran' });
    },
  );
});

describe('a server that needs a secret', () => {
  it(
    'is failed, saying which secret, until the secret is set; then the next sync starts it',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/mcp.json': {
          mcpServers: {
            everything: {
              ...referenceServers.everything(),
              env: { SERVICE_TOKEN: '${secrets.SERVICE_TOKEN}' },
            },
          },
        },
      });
      const secrets = new Map<string, string>();
      const hub = new McpHub(org, {
        orgPath: org,
        secret: (name) => secrets.get(name),
        refusal: refusesNothing,
        redact: (text) => text,
      });
      try {
        await hub.sync(DEFAULT_ORG_POLICY, true);
        expect(hub.views()[0]).toMatchObject({
          status: 'failed',
          error: 'it needs the secret SERVICE_TOKEN, which is not set',
        });
        await hub.sync(DEFAULT_ORG_POLICY, true);
        expect(hub.views()[0]?.status).toBe('failed');
        secrets.set('SERVICE_TOKEN', 'tok-set-later-5e1d');
        await hub.sync(DEFAULT_ORG_POLICY, true);
        expect(hub.views()[0]).toMatchObject({ status: 'running', error: null });
      } finally {
        await hub.stopAll();
      }
    },
  );
});
