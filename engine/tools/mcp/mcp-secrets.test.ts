import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer } from '../../models/test-support/fake-model-server';
import type { LoopbackServer } from '../../models/test-support/loopback-server';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { MCP_RESULT_MAX_CHARS } from './mcp-result';
import { lemming } from './test-support/mcp-cli';

const orgs = tempOrgs();
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  orgs.cleanup();
});

const TOKEN = 'svc-Mq4Xn8Rw2Kz7Tb5Lp';
/** The person's secrets, as the command line reads them. */
const SECRETS = { LEMMING_SECRET_SERVICE_TOKEN: TOKEN };
const BASE64 = Buffer.from(TOKEN).toString('base64');
const LEAKY_SERVER = join(import.meta.dirname, 'test-support', 'secret-server.mjs');

/** No 8 first characters of the token, plain or base64, are in `text`. */
function expectNoTokenPrefix(text: string): void {
  expect(text).not.toContain(TOKEN.slice(0, 8));
  expect(text).not.toContain(BASE64.slice(0, 8));
}

/**
 * An org whose mcp.json starts the leaky server with the stored secret SERVICE_TOKEN in its env, and
 * whose agent ada may use its tools; its person trusted it and granted the secret.
 */
async function leakyOrg(files: Record<string, unknown> = {}): Promise<string> {
  const org = orgs.build({
    'lemming/config/mcp.json': {
      mcpServers: {
        leaky: {
          command: process.execPath,
          args: [LEAKY_SERVER],
          env: { SERVICE_TOKEN: '${secrets.SERVICE_TOKEN}' },
        },
      },
    },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:leaky'] },
    }),
    ...files,
  });
  const trusted = await lemming(['trust', org, '--yes', '--grant', 'SERVICE_TOKEN'], SECRETS);
  expect(trusted.code, trusted.stderr).toBe(0);
  return org;
}

describe('an MCP server that gives away its secret', () => {
  it(
    'an answer cut at 64 KiB keeps no first characters of it, plain or base64, for the agent or in the timeline',
    { timeout: 120_000 },
    async () => {
      const org = await leakyOrg();
      for (const spelling of ['plain', 'base64'] as const)
        for (const kept of [8, 13, TOKEN.length - 1]) {
          const call = await lemming(
            [
              'call',
              org,
              'ada',
              'mcp__leaky__padded',
              JSON.stringify({ pad: MCP_RESULT_MAX_CHARS - kept, spelling }),
            ],
            SECRETS,
          );
          expect(call.code, call.stderr).toBe(0);
          expect(call.stdout).toContain('[cut: the answer had');
          expectNoTokenPrefix(call.stdout);
        }
      const timeline = await lemming(['timeline', org, '--kind', 'tool_result', '--json']);
      expect(timeline.stdout).toContain('[cut: the answer had');
      expectNoTokenPrefix(timeline.stdout);
    },
  );

  it(
    "a tool description holding it reaches neither the model's provider nor lemming connectors",
    { timeout: 120_000 },
    async () => {
      const model = await startFakeOpenAiServer({ models: ['m'] });
      servers.push(model);
      const org = await leakyOrg({
        'lemming/config/models.json': {
          remote: {
            provider: 'openai-compatible',
            model_name: 'm',
            provider_config: { base_url: `${model.url}/v1`, max_retries: 0 },
          },
        },
        'agents/ada/resume.json': resume('ada', {
          model: { key: 'remote' },
          permissions: { read_outboxes: [], tools: ['group:mcp:leaky'] },
        }),
      });
      const tick = await lemming(['tick', org], SECRETS);
      expect(tick.code, tick.stderr).toBe(0);
      expect(model.received).toHaveLength(1);
      const request = model.received[0]!.body;
      expect(request).toContain('mcp__leaky__lookup');
      expect(request).toContain('[redacted:SERVICE_TOKEN]');
      expect(request).not.toContain(TOKEN);

      for (const args of [
        ['connectors', org],
        ['connectors', org, '--json'],
        ['tools', org, 'ada'],
      ]) {
        const shown = await lemming(args, SECRETS);
        expect(shown.code, shown.stderr).toBe(0);
        if (args[0] === 'connectors') expect(shown.stdout).toContain('Looks up a record');
        expect(shown.stdout + shown.stderr).not.toContain(TOKEN);
      }
    },
  );
});
