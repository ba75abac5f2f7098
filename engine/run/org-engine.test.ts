import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import { OUTBOX_ENTRY_KEYS } from '../messages/outbox-entry';
import { openTimeline } from '../timeline/timeline-store';
import type { OrgEngine } from './org-engine';
import { DEMO_ORG, resume, UPSTREAM } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';
import { chatCompletion as completion } from '../models/test-support/chat-completion';

const world = engineWorld();
const { orgs, open } = world;

function events(engine: OrgEngine, filter: { kinds?: string[]; agents?: string[] } = {}) {
  const rows = [];
  let cursor: number | null = null;
  do {
    const page = engine.timeline.page({ ...filter, direction: 'asc', cursor, limit: 1000 });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor !== null);
  // `kind` is the event's own; the list files a message under its entry's kind ("message:request").
  return rows.map((row) => {
    const event = JSON.parse(row.json) as Record<string, any>;
    return { ...row, listedKind: row.kind, kind: event.kind as string, event };
  });
}

const OUTBOX_NAME = /^\d{8}_[0-9a-f]{32}\.json$/;

describe('the demo org', () => {
  it('runs five ticks offline and its timeline shows messages, tool calls, memory and credits', async () => {
    const org = orgs.copy(DEMO_ORG);
    const engine = await open(org);
    for (let tick = 1; tick <= 5; tick += 1) expect((await engine.runTick()).tick).toBe(tick);

    const kinds = new Set(events(engine).map((row) => row.kind));
    for (const kind of [
      'tick_started',
      'turn_started',
      'model_call',
      'tool_call',
      'tool_result',
      'message',
      'memory_update',
      'credit',
      'warning',
      'turn_completed',
      'tick_completed',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    expect(JSON.parse(readFileSync(join(org, 'lemming/config/tick.json'), 'utf8'))).toEqual({
      current_tick: 6,
    });
    const plan = JSON.parse(readFileSync(join(org, 'agents/manager/memory/plan.json'), 'utf8'));
    expect(plan).toMatchObject({
      key: 'plan',
      agent: 'manager',
      operation: 'merge',
      tick: 4,
      value: { goal: 'launch note', status: 'done' },
    });
    expect(
      JSON.parse(readFileSync(join(org, 'agents/researcher/memory/findings.json'), 'utf8')).value,
    ).toHaveLength(3);
  });

  it('leaves every event of a finished tick searchable, even by a read-only viewer, and no file owed', async () => {
    const org = orgs.copy(DEMO_ORG);
    const engine = await open(org);
    await engine.runTick();
    expect(engine.timeline.unsearchedEvents()).toBe(0);
    expect(engine.timeline.db.prepare('SELECT count(*) FROM pending_files').pluck().get()).toBe(0);
    const viewer = openTimeline(engine.timeline.file, { readonly: true });
    if (!viewer.ok) throw new Error(viewer.error.message);
    try {
      expect(viewer.timeline.unsearchedEvents()).toBe(0);
      // The tick's last event is indexed by the commit that closes the tick.
      expect(viewer.timeline.page({ text: 'tick_completed' }).rows.map((row) => row.kind)).toContain(
        'tick_completed',
      );
    } finally {
      viewer.timeline.close();
    }
  });

  it("writes outbox entries with exactly LeMMing's keys and file names", async () => {
    const org = orgs.copy(DEMO_ORG);
    const engine = await open(org);
    for (let tick = 1; tick <= 4; tick += 1) await engine.runTick();
    await engine.sendHumanMessage('Thanks, ship it.', { importance: 'high', target: 'manager' });
    let files = 0;
    for (const agent of ['manager', 'researcher', 'writer', 'human']) {
      for (const name of readdirSync(join(org, 'agents', agent, 'outbox'))) {
        files += 1;
        expect(name).toMatch(OUTBOX_NAME);
        const entry = JSON.parse(readFileSync(join(org, 'agents', agent, 'outbox', name), 'utf8'));
        expect(Object.keys(entry)).toEqual([...OUTBOX_ENTRY_KEYS]);
        expect(name).toBe(`${String(entry.tick).padStart(8, '0')}_${entry.id}.json`);
        expect(entry.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
      }
    }
    expect(files).toBe(7);
  });
});

describe('importing what LeMMing wrote', () => {
  it('brings every outbox entry, memory file and log line of happy_path into the timeline, every field kept', async () => {
    const source = join(UPSTREAM, 'engine-output', 'happy_path');
    const org = orgs.copy(source);
    const engine = await open(org);
    const timeline = events(engine);

    const expectedOutbox = new Map<string, unknown>();
    const expectedMemory = new Map<string, unknown>();
    const expectedLogLines = new Map<string, unknown>();
    const expectedActivity = new Map<string, string>();
    for (const agent of readdirSync(join(source, 'agents'))) {
      const dir = join(source, 'agents', agent);
      for (const name of safeList(join(dir, 'outbox')))
        expectedOutbox.set(
          `agents/${agent}/outbox/${name}`,
          JSON.parse(readFileSync(join(dir, 'outbox', name), 'utf8')),
        );
      for (const name of safeList(join(dir, 'memory')))
        expectedMemory.set(
          `agents/${agent}/memory/${name}`,
          JSON.parse(readFileSync(join(dir, 'memory', name), 'utf8')),
        );
      (safeRead(join(dir, 'logs', 'structured.jsonl')) ?? '')
        .split('\n')
        .forEach(
          (line, index) =>
            line &&
            expectedLogLines.set(`agents/${agent}/logs/structured.jsonl:${index + 1}`, JSON.parse(line)),
        );
      for (const [index, line] of (safeRead(join(dir, 'logs', 'activity.log')) ?? '').split('\n').entries()) {
        if (line) expectedActivity.set(`agents/${agent}/logs/activity.log:${index + 1}`, line);
      }
    }
    expect(expectedOutbox.size).toBe(11);

    const imported = (
      kind: string,
      key: (event: Record<string, any>) => string,
      value: (event: Record<string, any>) => unknown,
    ) =>
      new Map(timeline.filter((row) => row.kind === kind).map((row) => [key(row.event), value(row.event)]));
    expect(
      imported(
        'message',
        (event) => event.file,
        (event) => event.entry,
      ),
    ).toEqual(expectedOutbox);
    expect(
      imported(
        'memory_snapshot',
        (event) => event.file,
        (event) => event.record,
      ),
    ).toEqual(expectedMemory);
    expect(
      imported(
        'lemming_log',
        (event) => `${event.file}:${event.line}`,
        (event) => event.record,
      ),
    ).toEqual(expectedLogLines);
    expect(
      imported(
        'activity',
        (event) => `${event.file}:${event.line}`,
        (event) => event.text,
      ),
    ).toEqual(expectedActivity);

    const messages = engine.timeline.db.prepare('SELECT file, json FROM messages').all() as {
      file: string;
      json: string;
    }[];
    for (const { file, json } of messages) expect(json).toBe(readFileSync(join(source, file), 'utf8'));
  });

  it('imports each file once, however often the org is opened', async () => {
    const org = orgs.copy(join(UPSTREAM, 'engine-output', 'happy_path'));
    const first = await open(org);
    const count = first.timeline.latestSeq();
    world.close(first);
    const second = await open(org);
    expect(second.timeline.latestSeq()).toBe(count);
  });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
function safeRead(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function openAiModel(url: string, extra: Record<string, unknown> = {}) {
  return {
    provider: 'openai-compatible',
    model_name: 'test',
    provider_config: { base_url: `${url}/v1`, max_retries: 0, timeout_ms: 2000, ...extra },
  };
}

describe('failure isolation', () => {
  it('a 500, a garbage body and a timeout each fail only their own agent; the others run and the tick advances', async () => {
    const server = await startLoopbackServer((request, response) => {
      const model = (request.json as { model?: string } | undefined)?.model;
      if (model === 'errors') return sendJson(response, 500, { error: { message: 'internal error' } });
      if (model === 'garbage') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('<html>not json at all');
        return;
      }
      if (model === 'silent') return; // never answers
      sendJson(
        response,
        200,
        completion(
          JSON.stringify({
            outbox_entries: [{ kind: 'status', payload: { text: `ok from ${model}` } }],
            notes: 'fine',
          }),
        ),
      );
    });
    world.serve(server);
    const models = {
      errors: { ...openAiModel(server.url), model_name: 'errors' },
      garbage: { ...openAiModel(server.url), model_name: 'garbage' },
      silent: { ...openAiModel(server.url, { timeout_ms: 300 }), model_name: 'silent' },
      healthy: { ...openAiModel(server.url), model_name: 'healthy' },
    };
    const org = orgs.build({
      'lemming/config/models.json': models,
      'agents/a_errors/resume.json': resume('a_errors', { model: { key: 'errors' } }),
      'agents/b_garbage/resume.json': resume('b_garbage', { model: { key: 'garbage' } }),
      'agents/c_silent/resume.json': resume('c_silent', { model: { key: 'silent' } }),
      'agents/d_healthy/resume.json': resume('d_healthy', { model: { key: 'healthy' } }),
      'agents/e_healthy/resume.json': resume('e_healthy', { model: { key: 'healthy' } }),
    });
    const engine = await open(org, { limits: { callTimeoutMs: 1000 } });
    const report = await engine.runTick();

    expect(report.turns).toEqual([
      { agent: 'a_errors', status: 'failed' },
      { agent: 'b_garbage', status: 'failed' },
      { agent: 'c_silent', status: 'failed' },
      { agent: 'd_healthy', status: 'completed' },
      { agent: 'e_healthy', status: 'completed' },
    ]);
    const errors = events(engine, { kinds: ['error'] }).map((row) => [
      row.agent,
      row.event.reason,
      row.event.message,
    ]);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toEqual(['a_errors', 'llm_call_failed', expect.stringMatching(/500/)]);
    expect(errors[1]).toEqual(['b_garbage', 'llm_call_failed', expect.stringMatching(/JSON|respon/i)]);
    expect(errors[2]).toEqual(['c_silent', 'llm_call_failed', expect.stringMatching(/time/i)]);
    expect(readdirSync(join(org, 'agents/d_healthy/outbox'))).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(org, 'lemming/config/tick.json'), 'utf8'))).toEqual({
      current_tick: 2,
    });
    expect((await engine.runTick()).tick).toBe(2);
  });

  it('garbage model output is a contract warning, not a crash', async () => {
    const server = await startLoopbackServer((_request, response) =>
      sendJson(response, 200, completion('Sure! I will do that right away.')),
    );
    world.serve(server);
    const org = orgs.build({
      'lemming/config/models.json': { m: openAiModel(server.url) },
      'agents/a/resume.json': resume('a', { model: { key: 'm' } }),
    });
    const engine = await open(org);
    expect((await engine.runTick()).turns).toEqual([{ agent: 'a', status: 'completed' }]);
    expect(events(engine, { kinds: ['warning'] }).map((row) => row.event.code)).toContain(
      'contract_not_json',
    );
  });
});

describe('credits', () => {
  it('with a budget for exactly k calls, exactly k calls are made, later turns are skipped, and no balance goes below zero', async () => {
    const k = 3;
    const server = await startLoopbackServer((_request, response) =>
      sendJson(response, 200, completion('{"notes":"worked"}')),
    );
    world.serve(server);
    const org = orgs.build({
      'lemming/config/models.json': { m: openAiModel(server.url) },
      'lemming/config/credits.json': { a: { model: 'm', cost_per_action: 1, credits_left: k } },
      'agents/a/resume.json': resume('a', { model: { key: 'm' } }),
    });
    const engine = await open(org);
    const statuses = [];
    for (let tick = 1; tick <= k + 3; tick += 1) statuses.push((await engine.runTick()).turns[0]!.status);

    expect(server.received).toHaveLength(k);
    expect(statuses).toEqual([...Array(k).fill('completed'), 'skipped', 'skipped', 'skipped']);
    expect(events(engine, { kinds: ['skip'] }).map((row) => row.event.reason)).toEqual([
      'out_of_credits',
      'out_of_credits',
      'out_of_credits',
    ]);
    const balances = engine.timeline.db
      .prepare('SELECT min(balance_micro) AS lowest, count(*) AS entries FROM credit_ledger')
      .get() as { lowest: number; entries: number };
    expect(balances.lowest).toBe(0);
    expect(JSON.parse(readFileSync(join(org, 'lemming/config/credits.json'), 'utf8'))).toEqual({
      a: { model: 'm', cost_per_action: 1, credits_left: 0 },
    });
  });

  it('refuses a model call that token prices could make unaffordable, before it is made', async () => {
    const server = await startLoopbackServer((_request, response) =>
      sendJson(response, 200, completion('{"notes":"worked"}')),
    );
    world.serve(server);
    // 1000 credits per million output tokens and max_tokens 1000: a call may cost up to 1 credit more than its prompt.
    const org = orgs.build({
      'lemming/config/models.json': {
        m: openAiModel(server.url, { prices: { input_per_million: 0, output_per_million: 1000 } }),
      },
      'lemming/config/credits.json': { a: { model: 'm', cost_per_action: 0, credits_left: 0.5 } },
      'agents/a/resume.json': resume('a', { model: { key: 'm', max_tokens: 1000 } }),
    });
    const engine = await open(org);
    expect((await engine.runTick()).turns).toEqual([
      { agent: 'a', status: 'skipped', reason: 'out_of_credits' },
    ]);
    expect(server.received).toHaveLength(0);
    expect(events(engine, { kinds: ['skip'] })[0]!.event.message).toBe(
      'a cannot pay for a model call (up to 1 credits needed).',
    );
  });

  it('a top-up is a ledger entry and shows in credits.json', async () => {
    const org = orgs.copy(DEMO_ORG);
    const engine = await open(org);
    await engine.runTick();
    const before = engine.ledger.balance('writer')!;
    expect(await engine.topUp('writer', 25, 'more drafts')).toBeCloseTo(before / 1e6 + 25);
    expect(
      JSON.parse(readFileSync(join(org, 'lemming/config/credits.json'), 'utf8')).writer.credits_left,
    ).toBeCloseTo(before / 1e6 + 25);
    expect(engine.ledger.history('writer', { limit: 1 })[0]).toMatchObject({
      kind: 'top_up',
      reason: 'more drafts',
      amountMicro: 25_000_000,
    });
    await expect(engine.topUp('nobody', 5)).rejects.toThrow(
      'There is no agent named "nobody" with a valid resume',
    );
  });
});

describe('read cursors', () => {
  it('delivers each message as new to each permitted reader exactly once', async () => {
    // Writers post every tick; readers with different schedules and permissions read them.
    const script = {
      default: [
        {
          respond: {
            outbox_entries: [
              { kind: 'message', payload: { text: 'hello' } },
              { kind: 'note', payload: { text: 'again' } },
            ],
          },
        },
      ],
      agents: {
        r_all: [{ respond: { notes: 'read' } }],
        r_w1: [{ respond: { notes: 'read' } }],
        r_slow: [{ respond: { notes: 'read' } }],
      },
    };
    const org = orgs.build({
      'lemming/config/models.json': {
        scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
      },
      'script.json': script,
      'agents/w1/resume.json': resume('w1', { permissions: { read_outboxes: [], tools: [] } }),
      'agents/w2/resume.json': resume('w2', {
        permissions: { read_outboxes: [], tools: [] },
        schedule: { run_every_n_ticks: 2, phase_offset: 1 },
      }),
      'agents/r_all/resume.json': resume('r_all', { permissions: { read_outboxes: ['*'], tools: [] } }),
      'agents/r_w1/resume.json': resume('r_w1', {
        permissions: { read_outboxes: ['w1'], tools: [] },
        schedule: { run_every_n_ticks: 3, phase_offset: 2 },
      }),
      'agents/r_slow/resume.json': resume('r_slow', {
        permissions: { read_outboxes: ['w1', 'w2', 'human'], tools: [] },
        schedule: { run_every_n_ticks: 4, phase_offset: -1 },
      }),
    });
    const engine = await open(org, { concurrency: 3 });
    for (let tick = 1; tick <= 12; tick += 1) {
      if (tick % 5 === 0) await engine.sendHumanMessage(`human note ${tick}`);
      await engine.runTick();
    }
    // Final ticks in which only readers fire, so everything written has been offered.
    writeFileSync(
      join(org, 'agents/w1/resume.json'),
      JSON.stringify(
        resume('w1', {
          permissions: { read_outboxes: [], tools: [] },
          schedule: { run_every_n_ticks: 999, phase_offset: 0 },
        }),
      ),
    );
    writeFileSync(
      join(org, 'agents/w2/resume.json'),
      JSON.stringify(
        resume('w2', {
          permissions: { read_outboxes: [], tools: [] },
          schedule: { run_every_n_ticks: 999, phase_offset: 0 },
        }),
      ),
    );
    for (let tick = 13; tick <= 16; tick += 1) await engine.runTick();

    const messages = engine.timeline.db.prepare('SELECT id, sender FROM messages').all() as {
      id: string;
      sender: string;
    }[];
    const readers: Record<string, (sender: string) => boolean> = {
      r_all: (sender) => sender !== 'r_all',
      r_w1: (sender) => sender === 'w1',
      r_slow: (sender) => ['w1', 'w2', 'human'].includes(sender),
    };
    for (const [reader, permitted] of Object.entries(readers)) {
      const shown = events(engine, { kinds: ['turn_started'], agents: [reader] }).flatMap((row) =>
        (row.event.inbox.fresh as { id: string }[]).map((message) => message.id),
      );
      const expected = messages.filter((message) => permitted(message.sender)).map((message) => message.id);
      expect(shown.length, reader).toBe(new Set(shown).size);
      expect(new Set(shown), reader).toEqual(new Set(expected));
    }
  });
});

describe('skills', () => {
  it('are shown to the model with how to use them, and a skill whose tool is refused is listed with the reason', async () => {
    const org = orgs.copy(DEMO_ORG);
    for (const [name, tool] of [
      ['recall', 'memory_read'],
      ['browse', 'http_request'],
    ]) {
      mkdirSync(join(org, `agents/writer/skills/${name}`), { recursive: true });
      writeFileSync(
        join(org, `agents/writer/skills/${name}/SKILL.md`),
        `---\nname: ${name}\ndescription: The ${name} skill\ncommand-dispatch: tool\ncommand-tool: ${tool}\n---\nSteps for ${name}.\n`,
      );
    }
    const engine = await open(org);
    await engine.runTick();
    const prompt = JSON.stringify(
      events(engine, { kinds: ['model_call'], agents: ['writer'] })[0]!.event.prompt,
    );
    expect(prompt).toContain('### recall');
    expect(prompt).toContain('Steps for recall.');
    expect(prompt).toMatch(
      /Skills you cannot use now.*browse: it runs the tool \\"http_request\\", which is not available/,
    );
  });
});

describe('skills between turns', () => {
  it('an edit to a SKILL.md in place (same size), and a skill added, are in the next turn', async () => {
    const org = orgs.copy(DEMO_ORG);
    const skillFile = (name: string) => join(org, `agents/writer/skills/${name}/SKILL.md`);
    const writeSkill = (name: string, steps: string) => {
      mkdirSync(join(org, `agents/writer/skills/${name}`), { recursive: true });
      writeFileSync(skillFile(name), `---\nname: ${name}\ndescription: The ${name} skill\n---\n${steps}\n`);
    };
    writeSkill('recall', 'Steps for recall.');
    const engine = await open(org);
    const writerPrompts = () =>
      events(engine, { kinds: ['model_call'], agents: ['writer'] }).map((row) =>
        JSON.stringify(row.event.prompt),
      );
    const untilWriterCalls = async (count: number) => {
      while (writerPrompts().length < count) await engine.runTick();
    };
    await untilWriterCalls(1);
    expect(writerPrompts()[0]).toContain('Steps for recall.');

    writeSkill('recall', 'Steps for RECALL.');
    writeSkill('review', 'Steps for review.');
    await untilWriterCalls(2);
    expect(writerPrompts()[1]).toContain('Steps for RECALL.');
    expect(writerPrompts()[1]).toContain('Steps for review.');
  });
});

describe('memory between turns', () => {
  it('an edit to a memory file in place (same size) is in the next turn', async () => {
    const memory = (value: string) => `${JSON.stringify({ key: 'plan', value }, null, 2)}\n`;
    const org = orgs.build({
      'lemming/config/models.json': {
        scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
      },
      // The agent writes nothing to its memory folder itself: only the edit below changes it.
      'script.json': { default: [{ respond: { notes: 'read' } }] },
      'agents/planner/resume.json': resume('planner', { permissions: { read_outboxes: [], tools: [] } }),
      'agents/planner/memory/plan.json': memory('draft AAAA'),
    });
    const engine = await open(org);
    const memoryShown = async () => {
      await engine.runTick();
      return JSON.stringify(events(engine, { kinds: ['model_call'] }).at(-1)!.event.prompt);
    };
    // Two turns first: from the second on, the listing is kept while its files stay the same.
    expect(await memoryShown()).toContain('draft AAAA');
    expect(await memoryShown()).toContain('draft AAAA');

    writeFileSync(join(org, 'agents/planner/memory/plan.json'), memory('draft BBBB'));
    expect(await memoryShown()).toContain('draft BBBB');
  });
});
