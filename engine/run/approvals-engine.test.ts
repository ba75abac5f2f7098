import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalDesk } from '../app/approvals';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';
import { until } from '../../test/test-support/until';

const world = engineWorld();
const { orgs } = world;

type Step = { tool: string; args: Record<string, unknown> };

/** Agents whose model calls `calls[agent]` in round 1, then writes notes; approvals.json as given. */
function org(calls: Record<string, Step>, approvals?: Record<string, unknown>): string {
  const agents = Object.fromEntries(
    Object.entries(calls).map(([name, call]) => [
      name,
      [{ when: { round: 1 }, respond: { tool_calls: [call] } }, { respond: { notes: 'done' } }],
    ]),
  );
  return orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': { agents: agents, default: [{ respond: { notes: 'nothing to do' } }] },
    ...(approvals ? { 'lemming/config/approvals.json': approvals } : {}),
    ...Object.fromEntries(
      Object.keys(calls).map((name) => [
        `agents/${name}/resume.json`,
        resume(name, { permissions: { read_outboxes: [], tools: ['shell', 'file_write', 'memory_write'] } }),
      ]),
    ),
    'agents/quiet/resume.json': resume('quiet', { permissions: { read_outboxes: [], tools: [] } }),
    'shared/.keep': '',
  });
}

async function open(orgPath: string, desk: ApprovalDesk): Promise<OrgEngine> {
  return world.open(orgPath, { approvals: desk });
}

function events(engine: OrgEngine, kinds: string[]) {
  return engine.timeline
    .page({ kinds, direction: 'asc', cursor: null, limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

describe('"ask me first" in a run', () => {
  it('an unanswered request times out as denied, and the model is told', async () => {
    const path = org(
      { z: { tool: 'shell', args: { command: 'echo hi > made.txt' } } },
      { timeout_seconds: 0.3 },
    );
    const desk = new ApprovalDesk(() => {});
    const engine = await open(path, desk);
    await engine.runTick();
    expect(existsSync(join(path, 'agents/z/workspace/made.txt'))).toBe(false);
    const [answered] = events(engine, ['approval_answered']);
    expect(answered).toMatchObject({ agent: 'z', tool: 'shell', answer: 'deny', source: 'timeout' });
    expect(answered!.waited_ms).toBeGreaterThanOrEqual(250);
    const second = events(engine, ['model_call']).find((call) => call.agent === 'z' && call.round === 2);
    expect(JSON.stringify(second?.prompt)).toContain('No one answered within 0.3 seconds');
    expect(desk.pending()).toEqual([]);
  });

  it('a composed tool that runs the shell asks as the shell does', async () => {
    const path = orgs.build({
      'lemming/config/models.json': {
        scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
      },
      'lemming/config/approvals.json': { timeout_seconds: 0.3 },
      'tools/run_it.yaml': [
        'name: run_it',
        'description: Run a command',
        'parameters:',
        '  type: object',
        '  properties:',
        '    cmd: {type: string}',
        '  required: [cmd]',
        'implementation:',
        '  primitive: shell',
        '  args: {command: "${cmd}"}',
        '',
      ].join('\n'),
      'script.json': {
        agents: {
          z: [
            {
              when: { round: 1 },
              respond: { tool_calls: [{ tool: 'run_it', args: { cmd: 'echo hi > made.txt' } }] },
            },
            { respond: { notes: 'done' } },
          ],
        },
      },
      'agents/z/resume.json': resume('z', {
        permissions: { read_outboxes: [], tools: ['run_it', 'run_it via shell'] },
      }),
    });
    const engine = await open(path, new ApprovalDesk(() => {}));
    await engine.runTick();
    expect(existsSync(join(path, 'agents/z/workspace/made.txt'))).toBe(false);
    const [requested] = events(engine, ['approval_requested']);
    expect(requested).toMatchObject({ agent: 'z', tool: 'run_it' });
    expect(requested!.reason).toBe('run_it runs shell. It runs a command on this computer with your rights.');
    expect(events(engine, ['approval_answered'])[0]).toMatchObject({ answer: 'deny', source: 'timeout' });
  });

  it("pauses only the asking agent's turn; approving always for it is kept and not asked again", async () => {
    const path = org({
      z: { tool: 'shell', args: { command: 'echo hi >> made.txt' } },
      zz: { tool: 'file_write', args: { path: 'later.md', content: 'went on' } },
    });
    const desk = new ApprovalDesk(() => {});
    const engine = await open(path, desk);
    const tick = engine.runTick();
    await until(() => desk.pending().length === 1);
    // The agents before and after z went on while z waits: quiet's turn is committed, and zz (after z in
    // LeMMing's order, so committed after it) has already run its tool.
    await until(() => events(engine, ['turn_completed']).some((event) => event.agent === 'quiet'));
    await until(() => existsSync(join(path, 'agents/zz/workspace/later.md')));
    expect(desk.pending()).toHaveLength(1);
    const [request] = desk.pending();
    expect(request).toMatchObject({ agent: 'z', tool: 'shell', args: { command: 'echo hi >> made.txt' } });
    expect(request!.reason).toBe('It runs a command on this computer with your rights.');
    expect(await desk.answer({ id: request!.id, answer: 'approve_always' })).toEqual({
      ok: true,
      value: true,
    });
    await tick;
    expect(readFileSync(join(path, 'agents/z/workspace/made.txt'), 'utf8')).toBe('hi\n');
    // Kept in the person's own record, outside the org: the org's files hold nothing of it.
    expect(existsSync(join(path, 'lemming/config/approvals.json'))).toBe(false);
    await engine.runTick();
    expect(readFileSync(join(path, 'agents/z/workspace/made.txt'), 'utf8')).toBe('hi\nhi\n');
    expect(events(engine, ['approval_requested'])).toHaveLength(1);
    expect(events(engine, ['approval_answered'])[0]).toMatchObject({
      answer: 'approve_always',
      source: 'person',
    });
  });

  it('asks before a write outside the workspace, not inside it, and a denial with a reason reaches the model', async () => {
    const path = org({
      inside: { tool: 'file_write', args: { path: 'notes.md', content: 'mine' } },
      outside: { tool: 'file_write', args: { path: 'shared/report.md', content: 'for all' } },
    });
    const desk = new ApprovalDesk(() => {});
    const engine = await open(path, desk);
    const tick = engine.runTick();
    await until(() => desk.pending().length === 1);
    const [request] = desk.pending();
    expect(request).toMatchObject({ agent: 'outside', tool: 'file_write' });
    expect(request!.reason).toBe("It changes shared/report.md, outside the agent's own workspace.");
    await desk.answer({ id: request!.id, answer: 'deny', reason: 'keep it to yourself' });
    await tick;
    expect(readFileSync(join(path, 'agents/inside/workspace/notes.md'), 'utf8')).toBe('mine');
    expect(existsSync(join(path, 'shared/report.md'))).toBe(false);
    const second = events(engine, ['model_call']).find(
      (call) => call.agent === 'outside' && call.round === 2,
    );
    expect(JSON.stringify(second?.prompt)).toContain('the user denied it. Their reason: keep it to yourself');
    expect(events(engine, ['approval_requested']).map((event) => event.agent)).toEqual(['outside']);
  });

  it('a tool set to "never" is refused without asking; a broken settings file makes every call ask', async () => {
    const never = org(
      { z: { tool: 'memory_write', args: { key: 'k', value: 'v' } } },
      { agents: { z: { memory_write: 'never' } } },
    );
    const engine = await open(never, new ApprovalDesk(() => {}));
    await engine.runTick();
    expect(events(engine, ['approval_requested'])).toEqual([]);
    expect(events(engine, ['tool_result'])[0]).toMatchObject({
      result: { success: false, error: expect.stringContaining('is set to "never allowed" for z') },
    });

    const broken = org(
      { z: { tool: 'memory_write', args: { key: 'k', value: 'v' } } },
      { timeout_seconds: 'soon' },
    );
    const desk = new ApprovalDesk(() => {});
    const second = await open(broken, desk);
    const tick = second.runTick();
    await until(() => desk.pending().length === 1);
    expect(desk.pending()[0]!.reason).toContain('timeout_seconds must be a number of seconds');
    await desk.answer({ id: desk.pending()[0]!.id, answer: 'approve_once' });
    await tick;
    expect(events(second, ['tool_result'])[0]).toMatchObject({ result: { success: true } });
  });
});
