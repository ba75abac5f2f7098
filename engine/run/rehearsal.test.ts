import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalDesk } from '../app/approvals';
import { rehearsalDetail } from '../app/rehearsal-inspector';
import type { OrgEngine } from './org-engine';
import { OrgBusyError } from './engine-errors';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();

const SCRIPTED = {
  scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
};

/**
 * Ada reads notes.md, writes it, runs a shell command and saves a memory with tools, then sends a
 * message and adds to a memory by her answer: everything a turn can change, and one read.
 */
function busyOrg(extra: Record<string, unknown> = {}): string {
  return world.orgs.build({
    'lemming/config/models.json': SCRIPTED,
    'script.json': {
      agents: {
        ada: [
          {
            when: { round: 1 },
            respond: {
              tool_calls: [
                { tool: 'file_read', args: { path: 'notes.md' } },
                { tool: 'file_write', args: { path: 'notes.md', content: 'x'.repeat(120) } },
                { tool: 'shell', args: { command: 'echo hi > made.txt' } },
                { tool: 'memory_write', args: { key: 'plan', value: 'ship it' } },
              ],
            },
          },
          {
            respond: {
              outbox_entries: [{ kind: 'message', payload: { text: 'Hello Bo' }, to: ['bo'] }],
              memory_updates: [{ key: 'seen', op: 'append', value: 'x' }],
            },
          },
        ],
      },
      default: [{ respond: { notes: 'nothing to do' } }],
    },
    'lemming/config/credits.json': { ada: { model: 'scripted', cost_per_action: 0.5, credits_left: 10 } },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: ['human'], tools: ['file_read', 'file_write', 'shell', 'memory_write'] },
    }),
    'agents/ada/workspace/notes.md': 'the plan so far\n',
    'agents/bo/resume.json': resume('bo'),
    ...extra,
  });
}

/** Every file of the org but its timeline, with a hash of what it holds. */
function filesOf(org: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(org, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = relative(org, join(entry.parentPath, entry.name));
    if (path.startsWith(join('.lemming', 'timeline.sqlite'))) continue;
    files[path] = createHash('sha256')
      .update(readFileSync(join(org, path)))
      .digest('hex');
  }
  return files;
}

/** Rows of every table of the timeline but its events and what is kept of them (counts, spans), and its events. */
function timelineRows(engine: OrgEngine) {
  const { db } = engine.timeline;
  const tables = db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'event%'`)
    .pluck()
    .all() as string[];
  return {
    tables: Object.fromEntries(
      tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}"`).all()] as const),
    ),
    events: db.prepare('SELECT seq, kind, json FROM events ORDER BY seq').all() as {
      seq: number;
      kind: string;
      json: string;
    }[],
  };
}

describe('a rehearsal', () => {
  it('of a turn that writes a file, sends a message, changes memory and runs the shell changes no file and commits only its record', async () => {
    const org = busyOrg();
    const engine = await world.open(org);
    await engine.sendHumanMessage('Tidy the notes, Ada.', { target: 'ada' });
    const filesBefore = filesOf(org);
    const before = timelineRows(engine);

    const { seq } = await engine.rehearse('ada');

    expect(filesOf(org)).toEqual(filesBefore);
    const after = timelineRows(engine);
    expect(after.tables).toEqual(before.tables);
    expect(after.events.slice(0, -1)).toEqual(before.events);
    expect(after.events.at(-1)).toMatchObject({ seq, kind: 'rehearsal' });

    const detail = rehearsalDetail(engine.timeline, seq);
    if (!detail.ok) throw new Error(detail.error.message);
    expect(detail.value.status).toBe('completed');
    expect(detail.value.tick).toBe(1);
    expect(detail.value.wouldDo.map(({ title, target }) => `Would do: ${title} ${target}`)).toEqual([
      'Would do: Write a file notes.md (120 characters)',
      'Would do: Run a shell command echo hi > made.txt',
      "Would do: Save a memory 'plan'",
      "Would do: Add to the memory 'seen'",
      'Would do: Send a message to bo: Hello Bo',
    ]);
    // The read ran for real, and the model was told what each held-back call would have done.
    const tools = detail.value.steps.flatMap((step) => (step.type === 'tool_call' ? [step.call] : []));
    expect(tools.map((call) => [call.tool, call.output])).toEqual([
      ['file_read', 'the plan so far\n'],
      [
        'file_write',
        'Rehearsal: this would write 120 characters to notes.md; nothing was written. Go on as if it had worked.',
      ],
      [
        'shell',
        'Rehearsal: this would run the command `echo hi > made.txt`; nothing was run. Go on as if it had worked.',
      ],
      [
        'memory_write',
        "Rehearsal: this would save the memory 'plan'; nothing was saved. Go on as if it had worked.",
      ],
    ]);
    expect(tools.map((call) => call.heldBack ?? false)).toEqual([false, true, true, true]);
    expect(detail.value.totals.modelCalls).toBe(2);
    expect(detail.value.costWords).toMatch(
      /^The rehearsal made 2 model calls \(\d+ tokens in, \d+ out\), costing 0 credits\. As a real turn it would have been charged 0\.5 credits; a rehearsal is not charged/,
    );

    // The next tick is the one the rehearsal played, and runs as if there had been none.
    expect(await engine.currentTick()).toBe(1);
    const report = await engine.runTick();
    expect(report.turns).toContainEqual({ agent: 'ada', status: 'completed' });
    expect(readFileSync(join(org, 'agents/ada/workspace/notes.md'), 'utf8')).toBe('x'.repeat(120));
  });

  it('holds back a read the person wants to be asked about, without asking, and refuses what they never allow', async () => {
    const org = busyOrg({
      'lemming/config/approvals.json': { tools: { file_read: 'ask', shell: 'never' } },
    });
    const asked: unknown[] = [];
    const engine = await world.open(org, { approvals: new ApprovalDesk((agent) => asked.push(agent)) });

    const { seq } = await engine.rehearse('ada');

    expect(asked).toEqual([]);
    const detail = rehearsalDetail(engine.timeline, seq);
    if (!detail.ok) throw new Error(detail.error.message);
    const tools = detail.value.steps.flatMap((step) => (step.type === 'tool_call' ? [step.call] : []));
    expect(tools.map((call) => [call.tool, call.success, call.output ?? call.error])).toEqual([
      ['file_read', true, expect.stringMatching(/^Rehearsal: this would read a file \(notes.md\)/)],
      ['file_write', true, expect.stringMatching(/^Rehearsal: this would write 120 characters/)],
      ['shell', false, expect.stringContaining("Tool 'shell' was not run")],
      ['memory_write', true, expect.stringMatching(/^Rehearsal: this would save the memory 'plan'/)],
    ]);
    expect(
      detail.value.wouldDo.filter((action) => action.what === 'tool').map((action) => action.tool),
    ).toEqual(['file_read', 'file_write', 'memory_write']);
  });

  it('runs beside a tick of the same engine, and is refused while another program runs the org', async () => {
    const org = busyOrg({
      'script.json': {
        agents: { bo: [{ respond: { notes: 'slow', delay_ms: 300 } }] },
        default: [{ respond: { notes: 'rehearsed' } }],
      },
    });
    const engine = await world.open(org);
    const tick = engine.runTick();
    const { record } = await engine.rehearse('ada');
    expect(record).toMatchObject({ kind: 'rehearsal', as_tick: 1, status: 'completed' });
    expect((await tick).turns).toEqual(
      expect.arrayContaining([
        { agent: 'ada', status: 'completed' },
        { agent: 'bo', status: 'completed' },
      ]),
    );
    expect(await engine.currentTick()).toBe(2);

    const other = await world.open(org);
    await expect(other.rehearse('ada')).rejects.toThrow(OrgBusyError);
  });
});
