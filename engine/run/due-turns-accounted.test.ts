import { describe, expect, it } from 'vitest';
import type { ApprovalAsker } from '../tools/approval-gate';
import { firesAt } from '../org/schedule';
import type { OrgEngine } from './org-engine';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();
const INTERVAL_MS = 10_000;

/** Nobody answers: a turn that asks parks, as in an unattended run, and waits for the person throughout. */
const nobodyAnswers: ApprovalAsker = { ask: () => new Promise(() => {}), parks: () => true };

type Role = 'switched_off' | 'broke' | 'invalid' | 'asks' | 'works';

/** 30 agents: two switched off, two out of credits, two with unusable resumes, one that asks to run a shell command, 23 that work; periods 1–5 with offsets. */
function thirtyAgents(): { name: string; role: Role; period: number; phase: number }[] {
  const roles: Role[] = ['switched_off', 'switched_off', 'broke', 'broke', 'invalid', 'invalid', 'asks'];
  return Array.from({ length: 30 }, (_, index) => ({
    name: `a${String(index + 1).padStart(2, '0')}`,
    role: roles[index] ?? 'works',
    period: (index % 5) + 1,
    phase: index % 3,
  }));
}

function thirtyAgentOrg(agents: ReturnType<typeof thirtyAgents>): string {
  const files: Record<string, unknown> = {
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      agents: {
        a07: [
          { when: { round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command: 'echo hi' } }] } },
          { respond: { notes: 'asked' } },
        ],
      },
      default: [{ respond: { notes: 'worked' } }],
    },
    // A day to answer: the request waits through all 200 ticks (2,000 s) without timing out.
    'lemming/config/approvals.json': { timeout_seconds: 86_400 },
    'lemming/config/credits.json': Object.fromEntries(
      agents.map(({ name, role }) => [
        name,
        { model: 'scripted', cost_per_action: 0, credits_left: role === 'broke' ? 0 : 1000 },
      ]),
    ),
  };
  for (const { name, role, period, phase } of agents) {
    const schedule = { run_every_n_ticks: role === 'invalid' ? 0 : period, phase_offset: phase };
    files[`agents/${name}/resume.json`] = resume(name, {
      schedule,
      ...(role === 'switched_off' ? { switched_off: true } : {}),
      ...(role === 'asks' ? { permissions: { read_outboxes: [], tools: ['shell'] } } : {}),
    });
  }
  return world.orgs.build(files);
}

function rows(engine: OrgEngine, kinds: string[]): Record<string, any>[] {
  const found: Record<string, any>[] = [];
  let cursor: number | null = null;
  for (;;) {
    const page = engine.timeline.page({ kinds, direction: 'asc', cursor, limit: 1000 });
    found.push(...page.rows.map((row) => JSON.parse(row.json) as Record<string, any>));
    if (!page.nextCursor) return found;
    cursor = page.nextCursor;
  }
}

describe('every due turn accounted for', () => {
  it('over 200 ticks of a 30-agent org, each due turn has exactly one record, and a 10-minute gap with the app closed gives one missed record', async () => {
    const agents = thirtyAgents();
    const org = thirtyAgentOrg(agents);
    let now = new Date('2026-11-28T08:00:00Z').getTime();
    const clock = () => new Date(now);
    const first = await world.open(org, { clock, approvals: nobodyAnswers });
    for (let tick = 1; tick <= 200; tick += 1) {
      await first.runTick(undefined, { intervalMs: INTERVAL_MS });
      now += INTERVAL_MS;
    }

    const completed = rows(first, ['tick_completed']);
    expect(completed.map((row) => row.tick)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    const skips = rows(first, ['skip']);
    const turnsDone = rows(first, ['turn_completed']);
    const parked = rows(first, ['turn_parked']);
    let asksParked = false;
    for (const { tick, turns } of completed) {
      const due = agents.filter(
        (agent) =>
          agent.role === 'invalid' ||
          firesAt(tick, { run_every_n_ticks: agent.period, phase_offset: agent.phase }),
      );
      const recorded = (turns as { agent: string; status: string; reason?: string }[])
        .map(({ agent, status, reason }) => `${agent} ${status}${reason ? ` ${reason}` : ''}`)
        .sort();
      const expected = due
        .map(({ name, role }) => {
          if (role === 'switched_off') return `${name} skipped switched_off`;
          if (role === 'broke') return `${name} skipped out_of_credits`;
          if (role === 'invalid') return `${name} skipped invalid_resume`;
          if (role === 'asks' && asksParked) return `${name} skipped waiting_for_person`;
          if (role === 'asks') return `${name} parked`;
          return `${name} completed`;
        })
        .sort();
      if (due.some((agent) => agent.role === 'asks')) asksParked = true;
      expect(recorded, `tick ${tick}`).toEqual(expected);
      const skippedNow = skips
        .filter((event) => event.tick === tick)
        .map((event) => `${event.agent} ${event.reason}`);
      const doneNow = turnsDone
        .filter((event) => event.tick === tick && event.status !== 'skipped')
        .map((event) => event.agent as string);
      const parkedNow = parked.filter((event) => event.tick === tick).map((event) => event.agent as string);
      expect([...skippedNow, ...doneNow, ...parkedNow].length, `tick ${tick}`).toBe(due.length);
      expect(
        new Set([...skippedNow.map((text) => text.split(' ')[0]), ...doneNow, ...parkedNow]).size,
        `tick ${tick}`,
      ).toBe(due.length);
    }
    // The agent that asks parked once, on its first turn, and was never answered: it waited, and ran nothing.
    expect(parked.map((event) => event.agent)).toEqual(['a07']);
    expect(rows(first, ['approval_answered'])).toEqual([]);
    expect(rows(first, ['tool_result']).some((event) => event.agent === 'a07')).toBe(false);
    expect(
      rows(first, ['model_call']).some((event) => ['a01', 'a02', 'a03', 'a04'].includes(event.agent)),
    ).toBe(false);

    // The app is closed for ten minutes; the run goes on when it opens again.
    world.close(first);
    now += 10 * 60_000;
    const reopened = await world.open(org, { clock, approvals: nobodyAnswers });
    const report = await reopened.runTick(undefined, { intervalMs: INTERVAL_MS });
    now += INTERVAL_MS;
    await reopened.runTick(undefined, { intervalMs: INTERVAL_MS });

    const missed = rows(reopened, ['ticks_missed']);
    expect(missed).toEqual([
      expect.objectContaining({
        from: 201,
        to: 260,
        cause: 'app_closed',
        message:
          'Ticks 201–260 did not run: the app was closed. Agents that were due in them wait for their next turn.',
        catching_up: [],
      }),
    ]);
    expect(report.tick).toBe(261);
    expect(
      rows(reopened, ['tick_completed'])
        .map((row) => row.tick)
        .slice(-2),
    ).toEqual([261, 262]);
  }, 60_000);
});
