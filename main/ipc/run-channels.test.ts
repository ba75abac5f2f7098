import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
} from '../../engine/models/test-support/loopback-server';
import { DEMO_ORG, ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';
import { until } from '../../test/test-support/until';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());
const openDemo = () => harnesses.openDemo();

interface Row {
  seq: number;
  kind: string;
  agent: string | null;
  tick: number | null;
  summary: string;
}

/** Every row after `cursor`, oldest first, as the live tail pulls them. */
async function tail(
  harness: IpcHarness,
  cursor: number,
  filter: Record<string, unknown> = {},
): Promise<Row[]> {
  const rows: Row[] = [];
  let next: number | null = cursor;
  while (next !== null) {
    const page: { rows: Row[]; nextCursor: number | null } = valueOf(
      await harness.dispatch('timeline.page', { ...filter, direction: 'asc', cursor: next, limit: 50 }),
    );
    rows.push(...page.rows);
    next = page.nextCursor;
  }
  return rows;
}

describe('run channels and their events', () => {
  it('a step pings the timeline, reports the run state and which agents are running', async () => {
    const { harness } = await openDemo();
    const before = valueOf<{ latestSeq: number }>(await harness.dispatch('org.summary', {})).latestSeq;
    harness.events.splice(0);
    const step = valueOf<{ report: { tick: number } }>(await harness.dispatch('run.step', {}));
    expect(step.report.tick).toBe(1);
    await until(() => harness.events.some((event) => event.name === 'timeline.appended'));
    harness.host.events.flush();

    const phases = harness.events
      .filter((event) => event.name === 'run.state')
      .map((event) => (event.payload as { phase: string }).phase);
    expect(phases[0]).toBe('stepping');
    expect(phases.at(-1)).toBe('idle');
    const running = harness.events
      .filter((event) => event.name === 'agents.changed')
      .flatMap((event) => (event.payload as { names: string[] }).names);
    for (const agent of ['manager', 'researcher', 'writer']) expect(running).toContain(agent);

    const latest = valueOf<{ latestSeq: number }>(await harness.dispatch('org.summary', {})).latestSeq;
    const pings = harness.events
      .filter((event) => event.name === 'timeline.appended')
      .map((event) => (event.payload as { lastSeq: number }).lastSeq);
    expect(pings.at(-1)).toBe(latest);
    expect(pings).toEqual([...pings].sort((a, b) => a - b));
    const rows = await tail(harness, before);
    expect(rows.map((row) => row.seq)).toEqual(
      Array.from({ length: latest - before }, (_, index) => before + index + 1),
    );
    expect(pings.length).toBeLessThan(rows.length);
  });

  it("start runs ticks until its limit, with the org's tick interval, and the tail sees every event in order", async () => {
    const { harness, org } = await openDemo();
    valueOf(await harness.dispatch('settings.update', { tickIntervalSeconds: 0.01 }));
    expect(JSON.parse(readFileSync(join(org, 'lemming/config/org_config.json'), 'utf8'))).toMatchObject({
      base_turn_seconds: 0.01,
    });
    harness.events.splice(0);
    const started = valueOf<{ phase: string; intervalMs: number; tickLimit: number }>(
      await harness.dispatch('run.start', { ticks: 3 }),
    );
    expect(started).toMatchObject({ phase: 'running', intervalMs: 10, tickLimit: 3 });
    expect(await harness.dispatch('run.step', {})).toEqual({
      ok: false,
      error: { code: 'busy', message: 'Cannot step while the run is running; pause it first.' },
    });
    await until(() =>
      harness.events.some(
        (event) => event.name === 'run.state' && (event.payload as { phase: string }).phase === 'idle',
      ),
    );
    expect(valueOf(await harness.dispatch('run.state', {}))).toMatchObject({
      phase: 'idle',
      ticksRun: 3,
      nextTick: 4,
      ended: { reason: 'tick_limit' },
    });

    const rows = await tail(harness, 0);
    expect(rows.filter((row) => row.kind === 'tick_started').map((row) => row.tick)).toEqual([1, 2, 3]);
    expect(rows.map((row) => row.seq)).toEqual([...rows.map((row) => row.seq)].sort((a, b) => a - b));
  });

  it('opening another org stops the run of the one before; opening the same org again keeps it going', async () => {
    const { harness, org } = await openDemo();
    valueOf(await harness.dispatch('run.start', { intervalMs: 600_000 }));
    valueOf(await harness.dispatch('org.open', { path: org }));
    expect(valueOf(await harness.dispatch('run.state', {}))).toMatchObject({ phase: 'running' });
    const other = harness.copy(DEMO_ORG);
    valueOf(await harness.dispatch('org.open', { path: other }));
    expect(valueOf(await harness.dispatch('run.state', {}))).toMatchObject({ phase: 'idle', nextTick: 1 });
    expect(
      harness.events.filter((event) => event.name === 'org.changed').map((event) => event.payload),
    ).toEqual([{ path: expect.not.stringMatching(other) }, { path: other }]);
    expect(valueOf(await harness.dispatch('org.close', {}))).toEqual({ closed: true });
    expect(harness.events.at(-1)).toEqual({ name: 'org.changed', payload: { path: null } });
  });
});

describe('timeline channels', () => {
  it('pages filter by agent, kind, tick range and text; get gives the exact JSON; facets list what there is', async () => {
    const { harness } = await openDemo();
    for (let tick = 0; tick < 3; tick += 1) valueOf(await harness.dispatch('run.step', {}));

    const messages = await tail(harness, 0, { agents: ['researcher'], kinds: ['message'] });
    expect(messages.length).toBeGreaterThan(0);
    // "message" lists every message, each under its entry's own kind ("message:report").
    expect(messages.every((row) => row.agent === 'researcher' && /^message(:|$)/.test(row.kind))).toBe(true);
    expect(messages[0]!.summary).toMatch(/^\S+ to manager: /);
    const tick2 = await tail(harness, 0, { tickFrom: 2, tickTo: 2 });
    expect(new Set(tick2.map((row) => row.tick))).toEqual(new Set([2]));
    const found = await tail(harness, 0, { text: 'facts' });
    expect(found.length).toBeGreaterThan(0);

    const newest = valueOf<{ rows: Row[]; nextCursor: number | null; latestSeq: number }>(
      await harness.dispatch('timeline.page', { limit: 5 }),
    );
    expect(newest.rows.map((row) => row.seq)).toEqual([
      newest.latestSeq,
      newest.latestSeq - 1,
      newest.latestSeq - 2,
      newest.latestSeq - 3,
      newest.latestSeq - 4,
    ]);
    expect(newest.nextCursor).toBe(newest.latestSeq - 4);

    const event = valueOf<{ json: string; kind: string }>(
      await harness.dispatch('timeline.get', { seq: messages[0]!.seq }),
    );
    expect(JSON.parse(event.json)).toMatchObject({
      kind: 'message',
      agent: 'researcher',
      entry: { kind: expect.any(String) },
    });
    expect(await harness.dispatch('timeline.get', { seq: 999_999 })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'There is no event 999999 in the timeline.' },
    });

    const facets = valueOf<{ kinds: string[]; agents: string[]; firstTick: number; lastTick: number }>(
      await harness.dispatch('timeline.facets', {}),
    );
    expect(facets.kinds).toEqual([...facets.kinds].sort());
    for (const kind of ['message', 'model_call', 'tick_started', 'turn_completed'])
      expect(facets.kinds).toContain(kind);
    expect(facets.agents).toEqual(['manager', 'researcher', 'writer']);
    expect(facets).toMatchObject({ firstTick: 1, lastTick: 3 });
  });

  it('export writes the filtered events to the file the user picked, or nothing when they cancel', async () => {
    const { harness } = await openDemo();
    valueOf(await harness.dispatch('run.step', {}));
    expect(valueOf(await harness.dispatch('timeline.export', {}))).toEqual({ path: null, exported: 0 });
    const file = join(harness.tempDir(), 'messages.jsonl');
    harness.setExportFile(file);
    const exported = valueOf<{ exported: number }>(
      await harness.dispatch('timeline.export', { filter: { kinds: ['message'] } }),
    );
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(exported.exported);
    expect(lines.every((line) => JSON.parse(line).kind === 'message')).toBe(true);
  });
});

describe('credits and messages', () => {
  it('balances, a history page by page, and a top-up that pings the timeline', async () => {
    const { harness } = await openDemo();
    valueOf(await harness.dispatch('run.step', {}));
    const balances = valueOf<{ agent: string; balance: number | null; maxCredits: number | null }[]>(
      await harness.dispatch('credits.balances', {}),
    );
    expect(balances.find((entry) => entry.agent === 'researcher')).toMatchObject({
      maxCredits: 60,
      outOfCredits: false,
    });
    const researcher = balances.find((entry) => entry.agent === 'researcher')!.balance!;

    harness.events.splice(0);
    expect(valueOf(await harness.dispatch('credits.topUp', { agent: 'researcher', amount: 10 }))).toEqual({
      agent: 'researcher',
      balance: researcher + 10,
    });
    await until(() => harness.events.some((event) => event.name === 'timeline.appended'));
    expect(harness.events).toContainEqual({ name: 'agents.changed', payload: { names: ['researcher'] } });

    const first = valueOf<{
      entries: { id: number; kind: string; balance: number }[];
      nextCursor: number | null;
    }>(await harness.dispatch('credits.history', { agent: 'researcher', limit: 1 }));
    expect(first.entries).toEqual([
      expect.objectContaining({ kind: 'top_up', amount: 10, balance: researcher + 10 }),
    ]);
    const rest = valueOf<{ entries: { id: number; kind: string }[] }>(
      await harness.dispatch('credits.history', {
        agent: 'researcher',
        before: first.nextCursor!,
        limit: 100,
      }),
    );
    expect(rest.entries.at(-1)).toMatchObject({ kind: 'grant' });
    expect(rest.entries.every((entry) => entry.id < first.entries[0]!.id)).toBe(true);
    expect(await harness.dispatch('credits.topUp', { agent: 'ghost', amount: 1 })).toMatchObject({
      ok: false,
      error: { code: 'agent_not_found' },
    });
  });

  it("a message from the human lands in the human outbox in LeMMing's shape", async () => {
    const { harness, org } = await openDemo();
    const sent = valueOf<{ id: string; tick: number; file: string }>(
      await harness.dispatch('messages.send', { text: 'Ship it.', importance: 'high', target: 'manager' }),
    );
    expect(sent.file).toBe(`agents/human/outbox/00000001_${sent.id}.json`);
    expect(existsSync(join(org, sent.file))).toBe(true);
    expect(JSON.parse(readFileSync(join(org, sent.file), 'utf8'))).toMatchObject({
      id: sent.id,
      agent: 'human',
      tick: 1,
      payload: { text: 'Ship it.', importance: 'high', target: 'manager' },
    });
  });
});

describe('settings and models', () => {
  async function openAiServer(status: number, body: unknown): Promise<LoopbackServer> {
    const server = await startLoopbackServer((_request, response) => sendJson(response, status, body));
    harnesses.serve(server);
    return server;
  }

  it('test connection says whether a model answered, and what went wrong when it did not', async () => {
    const { harness } = await openDemo();
    const good = await openAiServer(200, {
      id: 'x',
      choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1 },
    });
    const bad = await openAiServer(404, { error: { message: 'model "nope" not found' } });
    valueOf(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'good',
        patch: { provider: 'openai-compatible', model_name: 'm1', base_url: `${good.url}/v1` },
      }),
    );
    valueOf(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'bad',
        patch: { provider: 'openai-compatible', model_name: 'nope', base_url: `${bad.url}/v1` },
      }),
    );

    expect(valueOf(await harness.dispatch('settings.testConnection', { model: 'good' }))).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^m1 answered in \d+ ms: "OK"\.$/),
      latencyMs: expect.any(Number),
    });
    expect(good.received[0]!.json).toMatchObject({ model: 'm1', messages: [{ role: 'user' }] });
    expect(valueOf(await harness.dispatch('settings.testConnection', { model: 'bad' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('not found'),
      latencyMs: null,
    });
    expect(
      valueOf(await harness.dispatch('settings.testConnection', { model: 'demo-scripted' })),
    ).toMatchObject({ ok: true });
    expect(await harness.dispatch('settings.testConnection', { model: 'absent' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('models.update changes one entry and keeps every other byte; an invalid entry is refused with the field', async () => {
    const { harness, org } = await openDemo();
    const file = join(org, 'lemming/config/models.json');
    const before = readFileSync(file, 'utf8');
    valueOf(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'local',
        patch: { provider: 'ollama', model_name: 'llama3.2' },
      }),
    );
    const list = valueOf<{ models: { key: string; usedBy: string[] }[] }>(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'local',
        patch: { prices: { input_per_million: 0, output_per_million: 0 } },
      }),
    );
    expect(list.models.map((model) => model.key)).toEqual(['demo-scripted', 'local']);
    expect(list.models[0]!.usedBy).toEqual(['manager', 'researcher', 'writer']);

    expect(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'local',
        patch: { base_url: 'ftp://nas' },
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_change',
        issues: [
          expect.objectContaining({ path: expect.stringContaining('local.provider_config.base_url') }),
        ],
      },
    });
    expect(
      await harness.dispatch('models.update', {
        action: 'set',
        key: 'fresh',
        patch: { base_url: 'http://x' },
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_change' },
    });
    valueOf(await harness.dispatch('models.update', { action: 'remove', key: 'local' }));
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});
