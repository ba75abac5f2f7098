import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../engine/cli/main';
import { DEMO_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

const WEATHER = `name: fetch_weather
description: Today's weather
parameters:
  city: {type: string, required: true}
request:
  method: GET
  url: "https://weather.example/today?city={{params.city}}"
  headers: {x-api-key: "{{env.WEATHER_KEY}}"}
allowed_hosts: ["weather.example"]
`;

/**
 * The demo org after one tick (so balances are seeded), with an org tool that needs a secret the
 * app has set, and a tool file that does not load. The app's answers are taken first; the org is
 * then closed in the app, so the CLI opens it as a person at a terminal would.
 */
async function appAndCli(): Promise<{
  org: string;
  app: (channel: string, input?: unknown) => Promise<unknown>;
  cli: (...argv: string[]) => Promise<unknown>;
}> {
  const harness = await harnesses.create();
  const org = harness.copy(DEMO_ORG);
  mkdirSync(join(org, 'tools'));
  writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER);
  writeFileSync(join(org, 'tools', 'broken.yaml'), 'name: broken\nrequest: [\n');
  valueOf(await harness.dispatch('org.open', { path: org }));
  valueOf(await harness.dispatch('secrets.set', { name: 'WEATHER_KEY', value: 'weather-key-value-1234' }));
  valueOf(await harness.dispatch('run.step', {}));
  return {
    org,
    app: async (channel, input = {}) => valueOf(await harness.dispatch(channel, input)),
    cli: async (...argv) => {
      let stdout = '';
      let stderr = '';
      const io = {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        env: {},
      };
      const code = await main([...argv, '--json', '--secrets-file', harness.secretsFile], io);
      if (code !== 0) throw new Error(`lemming ${argv.join(' ')} exited ${code}: ${stderr}`);
      return JSON.parse(stdout) as unknown;
    },
  };
}

describe('the CLI and the app answer from the same use-case', () => {
  it('tools: `lemming tools` and tools.explain give the same verdicts', { timeout: 60_000 }, async () => {
    const { org, app, cli } = await appAndCli();
    const fromApp = await app('tools.explain', { agent: 'writer' });
    await app('org.close');
    const fromCli = (await cli('tools', org, 'writer')) as Record<string, unknown>;
    expect(fromApp).toMatchObject({ agent: 'writer', tools: expect.arrayContaining([expect.anything()]) });
    expect({ agent: fromCli.agent, tools: fromCli.tools }).toEqual(fromApp);
  });

  it(
    'connectors: `lemming connectors` and connectors.list give the same list and load errors',
    { timeout: 60_000 },
    async () => {
      const { org, app, cli } = await appAndCli();
      const fromApp = (await app('connectors.list')) as {
        connectors: { id: string }[];
        loadErrors: unknown[];
      };
      await app('org.close');
      const fromCli = (await cli('connectors', org)) as Record<string, unknown>;
      expect(
        fromApp.connectors.find((connector) => connector.id === 'composed:org:fetch_weather'),
      ).toMatchObject({
        secrets: [{ name: 'WEATHER_KEY', isSet: true }],
      });
      expect(fromApp.loadErrors).toEqual([expect.objectContaining({ file: 'tools/broken.yaml' })]);
      expect({ connectors: fromCli.connectors, loadErrors: fromCli.loadErrors }).toEqual(fromApp);
    },
  );

  it(
    'agents: `lemming agents` and org.agents list the same agents; `lemming agents <org> AGENT` is agent.get',
    { timeout: 60_000 },
    async () => {
      const { org, app, cli } = await appAndCli();
      writeFileSync(join(org, 'agents', 'writer', 'resume.json'), '{"name": "writer",\n  "title": 3}\n');
      const list = await app('org.agents');
      const manager = await app('agent.get', { agent: 'manager' });
      const writer = await app('agent.get', { agent: 'writer' });
      await app('org.close');
      expect(list).toContainEqual(expect.objectContaining({ name: 'writer', valid: false }));
      expect(manager).toMatchObject({ name: 'manager', state: 'idle', balance: expect.any(Number) });
      expect(await cli('agents', org)).toEqual(list);
      expect(await cli('agents', org, 'manager')).toEqual(manager);
      expect(await cli('agents', org, 'writer')).toEqual(writer);
    },
  );

  it(
    'credits: `lemming credits` and credits.balances, `credits show A` and credits.history agree',
    { timeout: 60_000 },
    async () => {
      const { org, app, cli } = await appAndCli();
      await app('credits.topUp', { agent: 'writer', amount: 5 });
      const balances = await app('credits.balances');
      const history = (await app('credits.history', { agent: 'writer', limit: 50 })) as {
        entries: unknown[];
      };
      await app('org.close');
      expect(balances).toContainEqual(
        expect.objectContaining({ agent: 'writer', balance: expect.any(Number) }),
      );
      expect(history.entries[0]).toMatchObject({ kind: 'top_up', amount: 5 });
      expect(await cli('credits', org)).toEqual({ balances });
      expect(await cli('credits', org, 'show', 'writer')).toEqual({
        balances: (balances as { agent: string }[]).filter((balance) => balance.agent === 'writer'),
        history: history.entries,
      });
    },
  );
});
