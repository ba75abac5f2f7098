import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { lemming, SCRIPTED_MODELS, trustOrg } from './test-support/mcp-cli';
import { legacySseServer } from './test-support/legacy-sse-server';
import { startSignInServer } from './test-support/sign-in-server';

const orgs = tempOrgs();
const children: ChildProcess[] = [];
const closing: (() => Promise<void>)[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(closing.splice(0).map((close) => close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  orgs.cleanup();
});

const FOLLOW = join(import.meta.dirname, 'test-support', 'follow-sign-in.mjs');

describe('remote MCP servers in a turn (issue 27, Done-means 2)', () => {
  it(
    'a legacy-SSE server and a Streamable-HTTP server that requires sign-in both answer in one turn, with a bad entry beside them',
    { timeout: 120_000 },
    async () => {
      const ssePort = await legacySseServer(children);
      const signInServer = await startSignInServer();
      closing.push(signInServer.close);
      const signInPort = new URL(signInServer.url).port;
      const folder = mkdtempSync(join(tmpdir(), 'lemming-remote-'));
      folders.push(folder);
      const env = {
        LEMMING_SECRETS_FILE: join(folder, 'secrets.json'),
        BROWSER: `${process.execPath} ${FOLLOW}`,
      };
      const org = orgs.build({
        'lemming/config/models.json': SCRIPTED_MODELS,
        'lemming/config/mcp.json': {
          mcpServers: {
            legacy: { type: 'sse', url: `http://127.0.0.1:${ssePort}/sse` },
            remote: { url: signInServer.url },
            broken: { command: 'npx', url: 'http://127.0.0.1:9/mcp' },
          },
        },
        'lemming/config/policy.json': {
          network: {
            enabled: true,
            private_hosts: [`127.0.0.1:${ssePort}`, `127.0.0.1:${signInPort}`],
          },
        },
        'script.json': {
          default: [
            {
              when: { round: 1 },
              respond: {
                tool_calls: [
                  { id: 'c1', name: 'mcp__legacy__echo', arguments: { message: 'over legacy SSE' } },
                  { id: 'c2', name: 'mcp__remote__whoami', arguments: {} },
                ],
              },
            },
            { respond: { outbox_entries: [], notes: 'done' } },
          ],
        },
        'agents/ada/resume.json': resume('ada', {
          permissions: {
            read_outboxes: [],
            tools: ['mcp__legacy__echo', 'mcp__remote__whoami', 'mcp__broken__run'],
          },
        }),
      });
      await trustOrg(org);

      // Before the person signs in, the server waits for them; the others are as they are.
      const before = await lemming(['connectors', org], env);
      expect(before.stdout).toMatch(/^ {2}ready +legacy \(mcp:legacy\)$/m);
      expect(before.stdout).toContain('sign-in: not signed in (--sign-in remote)');
      expect(before.stdout).toMatch(/not ready\s+broken \(mcp:broken\)/);

      const signedIn = await lemming(['connectors', org, '--sign-in', 'remote'], env);
      expect(signedIn.code, signedIn.stderr).toBe(0);

      const run = await lemming(
        ['run', org, '--ticks', '1', '--approve', 'mcp__legacy__echo', '--approve', 'mcp__remote__whoami'],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const timeline = await lemming(['timeline', org, '--kind', 'tool_result', '--json'], env);
      const results = (
        JSON.parse(timeline.stdout) as {
          events: { event: { tool: string; result: { success: boolean; output: string } } }[];
        }
      ).events.map(({ event }) => [event.tool, event.result.success, event.result.output]);
      expect(results).toHaveLength(2);
      expect(results).toEqual(
        expect.arrayContaining([
          ['mcp__legacy__echo', true, 'Echo: over legacy SSE'],
          [
            'mcp__remote__whoami',
            true,
            expect.stringContaining('signed in with [redacted:MCP_SIGNIN_REMOTE_'),
          ],
        ]),
      );
    },
  );
});
