import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../engine/cli/test-support/run-cli';
import { DEMO_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';
import { WEATHER_TOOL } from '../../engine/tools/test-support/weather-tool';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

/**
 * The demo org after one tick (so balances are seeded), with an org tool that needs a secret the
 * app has set, and a tool file that does not load; trusted by its person in the app and at the terminal.
 * The app's answers are taken first; the org is then closed in the app, so the CLI opens it as a person
 * at a terminal would.
 */
async function appAndCli(): Promise<{
  org: string;
  app: (channel: string, input?: unknown) => Promise<unknown>;
  cli: (...argv: string[]) => Promise<unknown>;
  /** A command that only looks (status, inbox, timeline): no secrets file. */
  look: (...argv: string[]) => Promise<unknown>;
}> {
  const harness = await harnesses.create();
  const org = harness.copy(DEMO_ORG);
  mkdirSync(join(org, 'tools'));
  writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER_TOOL);
  writeFileSync(join(org, 'tools', 'broken.yaml'), 'name: broken\nrequest: [\n');
  valueOf(await harness.dispatch('org.open', { path: org }));
  valueOf(await harness.dispatch('secrets.set', { name: 'WEATHER_KEY', value: 'weather-key-value-1234' }));
  await harness.trustOpenOrg();
  expect((await runCli(['trust', org, '--yes', '--grant', 'WEATHER_KEY'])).code).toBe(0);
  valueOf(await harness.dispatch('run.step', {}));
  return {
    org,
    app: async (channel, input = {}) => valueOf(await harness.dispatch(channel, input)),
    cli: (...argv) => lemmingJson([...argv, '--secrets-file', harness.secretsFile]),
    look: (...argv) => lemmingJson(argv),
  };
}

async function lemmingJson(argv: string[]): Promise<unknown> {
  const { code, stdout, stderr } = await runCli([...argv, '--json']);
  if (code !== 0) throw new Error(`lemming ${argv.join(' ')} exited ${code}: ${stderr}`);
  return JSON.parse(stdout) as unknown;
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
      expect(manager).toMatchObject({
        name: 'manager',
        state: { kind: 'ready' },
        balance: expect.any(Number),
      });
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

  it('status: `lemming status` and org.status give the same report', { timeout: 60_000 }, async () => {
    const { org, app, look } = await appAndCli();
    writeFileSync(join(org, 'agents', 'writer', 'resume.json'), '{"name": "writer",\n  "title": 3}\n');
    const fromApp = await app('org.status');
    await app('org.close');
    expect(fromApp).toMatchObject({
      org,
      nextTick: 2,
      runningBy: null,
      agents: expect.arrayContaining([
        expect.objectContaining({ name: 'manager', valid: true, lastTurn: { tick: 1, status: 'completed' } }),
        expect.objectContaining({ name: 'writer', valid: false }),
      ]),
    });
    expect(await look('status', org)).toEqual(fromApp);
  });

  it(
    'timeline: `lemming timeline` rows are timeline.page rows, each with its event as timeline.get has it',
    { timeout: 60_000 },
    async () => {
      const { org, app, look } = await appAndCli();
      const page = (await app('timeline.page', { kinds: ['message', 'turn_completed'], limit: 5 })) as {
        rows: { seq: number }[];
      };
      const events = await Promise.all(
        page.rows.map(async (row) => (await app('timeline.get', { seq: row.seq })) as { json: string }),
      );
      await app('org.close');
      expect(page.rows).toHaveLength(5);
      const fromCli = (await look(
        'timeline',
        org,
        '--kind',
        'message',
        '--kind',
        'turn_completed',
        '--limit',
        '5',
      )) as { events: { event: unknown }[]; nextCursor: unknown; latestSeq: unknown };
      expect({
        rows: fromCli.events.map(({ event: _event, ...row }) => row),
        nextCursor: fromCli.nextCursor,
        latestSeq: fromCli.latestSeq,
      }).toEqual(page);
      expect(fromCli.events.map((row) => row.event)).toEqual(events.map((event) => JSON.parse(event.json)));
    },
  );

  it(
    'inbox: `lemming inbox` and messages.inbox show an agent the same messages',
    { timeout: 60_000 },
    async () => {
      const { org, app, look } = await appAndCli();
      await app('messages.send', { text: 'Ship it.', importance: 'critical', target: 'manager' });
      const fromApp = await app('messages.inbox', { agent: 'manager' });
      await app('org.close');
      expect(fromApp).toMatchObject({
        agent: 'manager',
        fresh: [expect.objectContaining({ sender: 'human', importance: 'critical', text: 'Ship it.' })],
      });
      expect(await look('inbox', org, 'manager')).toEqual(fromApp);
    },
  );

  it(
    'secrets: `lemming secret list` and secrets.list give the same names and dates',
    { timeout: 60_000 },
    async () => {
      const { app, cli } = await appAndCli();
      await app('org.close');
      const fromApp = (await app('secrets.list')) as { secrets: unknown[] };
      expect(fromApp.secrets).toEqual([expect.objectContaining({ name: 'WEATHER_KEY', isSet: true })]);
      // The stores differ only in where they look: the CLI also reads LEMMING_SECRET_* variables.
      expect(((await cli('secret', 'list')) as typeof fromApp).secrets).toEqual(fromApp.secrets);
    },
  );
});
