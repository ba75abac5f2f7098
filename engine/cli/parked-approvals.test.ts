import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../api/approval-schemas';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { runCli, runLemmingProcess } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());
const OTHERS = ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9'];

/** `asker` runs the shell in round 1 of tick 1 (it asks first); nine others write notes every tick. */
async function parkingOrg(): Promise<string> {
  const org = orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'lemming/config/approvals.json': { timeout_seconds: 3600 },
    'script.json': {
      agents: {
        asker: [
          {
            when: { tick: 1, round: 1 },
            respond: { tool_calls: [{ tool: 'shell', args: { command: 'echo approved >> made.txt' } }] },
          },
          { when: { round: 2 }, respond: { notes: 'went on after the answer' } },
          { respond: { notes: 'a later turn' } },
        ],
      },
      default: [{ respond: { notes: 'my turn' } }],
    },
    'agents/asker/resume.json': resume('asker', { permissions: { read_outboxes: [], tools: ['shell'] } }),
    'agents/asker/workspace/.keep': '',
    ...Object.fromEntries(
      OTHERS.map((name) => [
        `agents/${name}/resume.json`,
        resume(name, { permissions: { read_outboxes: [], tools: [] } }),
      ]),
    ),
  });
  expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
  return org;
}

function rows<T>(org: string, sql: string): T[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

async function waiting(org: string): Promise<ApprovalRequest[]> {
  const listed = await runCli(['approvals', org, '--json']);
  expect(listed.code).toBe(0);
  return (JSON.parse(listed.stdout) as { requests: ApprovalRequest[] }).requests;
}

const made = (org: string) => join(org, 'agents/asker/workspace/made.txt');

describe('an unattended run parks a turn that needs the person; lemming approvals answers it', () => {
  it('one agent waits 10 ticks while nine run every tick; approving resumes its turn at the next tick', async () => {
    const org = await parkingOrg();
    const run = await runLemmingProcess(['run', org, '--ticks', '10', '--json']);
    expect(run.code).toBe(0);
    const { ticks } = JSON.parse(run.stdout) as {
      ticks: { tick: number; turns: { agent: string; status: string }[] }[];
    };
    expect(ticks).toHaveLength(10);
    for (const report of ticks) {
      expect(report.turns.filter((turn) => turn.status === 'completed').map((turn) => turn.agent)).toEqual(
        OTHERS,
      );
      expect(report.turns.find((turn) => turn.agent === 'asker')?.status).toBe(
        report.tick === 1 ? 'parked' : 'skipped',
      );
    }
    const [request] = await waiting(org);
    expect(request).toMatchObject({
      agent: 'asker',
      tool: 'shell',
      tick: 1,
      args: { command: 'echo approved >> made.txt' },
    });
    const listed = await runCli(['approvals', org]);
    expect(listed.stdout).toContain(`${request!.id}  asker asks to run Run a shell command`);
    expect(existsSync(made(org))).toBe(false);

    const approved = await runCli(['approvals', org, 'approve', request!.id]);
    expect(approved).toMatchObject({ code: 0, stdout: 'Approved: its turn goes on at the next tick.\n' });
    expect(await waiting(org)).toEqual([]);
    expect((await runCli(['approvals', org, 'deny', request!.id])).stderr).toContain('no longer waiting');

    const tick = await runLemmingProcess(['tick', org]);
    expect(tick.stdout).toContain("asker's turn of tick 1, given your answer, went on: completed");
    expect(tick.stdout).toContain('tick 11: asker completed');
    expect(readFileSync(made(org), 'utf8')).toBe('approved\n');
    expect(rows(org, "SELECT tick, status FROM turns WHERE agent = 'asker' ORDER BY tick")).toEqual([
      { tick: 1, status: 'completed' },
      { tick: 11, status: 'completed' },
    ]);
    const skips = rows<{ json: string }>(
      org,
      "SELECT json FROM events WHERE kind = 'skip' AND agent = 'asker'",
    );
    expect(skips.map((skip) => JSON.parse(skip.json).reason)).toEqual(Array(9).fill('waiting_for_person'));
  });

  it('a kill of the run while a turn is parked loses nothing: the request is asked again and the turn resumes', async () => {
    const org = await parkingOrg();
    const killed = await runLemmingProcess(
      ['run', org, '--ticks', '1000', '--interval', '0.05'],
      (out, kill) => {
        if (out.includes('tick 3:')) kill();
      },
    );
    expect(killed.signal).toBe('SIGKILL');
    const [request] = await waiting(org);
    expect(request).toMatchObject({ agent: 'asker', tool: 'shell', tick: 1 });

    // The next run finds it still waiting (its time runs from when it was asked), its agent skipped.
    const again = await runLemmingProcess(['run', org, '--ticks', '2']);
    expect(again.stdout).toMatch(/tick \d+: asker skipped/);
    expect(await waiting(org)).toEqual([request]);

    expect((await runCli(['approvals', org, 'approve', request!.id])).code).toBe(0);
    const resumed = await runLemmingProcess(['tick', org]);
    expect(resumed.stdout).toContain("asker's turn of tick 1, given your answer, went on: completed");
    expect(readFileSync(made(org), 'utf8')).toBe('approved\n');
    const calls = rows<{ json: string }>(
      org,
      "SELECT json FROM events WHERE kind = 'model_call' AND agent = 'asker' AND tick = 1",
    );
    expect(calls.map((call) => JSON.parse(call.json).round)).toEqual([1, 2]);
  });

  it('a kill right after the turn parked (before its tick closed) runs the tick again without parking twice', async () => {
    const org = await parkingOrg();
    const killed = await runLemmingProcess(['run', org, '--ticks', '3'], undefined, {
      LEMMING_CRASH_AT: 'park:recorded',
    });
    expect(killed.signal).toBe('SIGKILL');
    const [request] = await waiting(org);

    const rerun = await runLemmingProcess(['tick', org]);
    expect(rerun.stdout).toContain('tick 1:');
    expect(rerun.stdout).toContain('asker parked');
    expect((await waiting(org)).map((waitingNow) => waitingNow.id)).toEqual([request!.id]);
    expect(rows(org, "SELECT kind FROM events WHERE kind = 'turn_parked'")).toHaveLength(1);
  });

  it('a kill after the approved call ran but before its turn committed does not run the call again', async () => {
    const org = await parkingOrg();
    await runLemmingProcess(['run', org]);
    const [request] = await waiting(org);
    expect((await runCli(['approvals', org, 'approve', request!.id])).code).toBe(0);
    const killed = await runLemmingProcess(['tick', org], undefined, { LEMMING_CRASH_AT: 'resume:staged' });
    expect(killed.signal).toBe('SIGKILL');
    expect(readFileSync(made(org), 'utf8')).toBe('approved\n');

    const resumed = await runLemmingProcess(['tick', org]);
    expect(resumed.stdout).toContain("asker's turn of tick 1, given your answer, went on: completed");
    expect(readFileSync(made(org), 'utf8')).toBe('approved\n');
    const results = rows<{ json: string }>(
      org,
      "SELECT json FROM events WHERE kind = 'tool_result' AND agent = 'asker'",
    );
    expect(results.map((result) => JSON.parse(result.json).started_before_stop)).toEqual(['r1c1']);
  });

  it('a turn parked at a tick cut off by a kill, answered before that tick runs again, commits once for it', async () => {
    const org = await parkingOrg();
    await runLemmingProcess(['run', org], undefined, { LEMMING_CRASH_AT: 'park:recorded' });
    const [request] = await waiting(org);
    expect((await runCli(['approvals', org, 'approve', request!.id])).code).toBe(0);

    const rerun = await runLemmingProcess(['tick', org]);

    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain("asker's turn of tick 1, given your answer, went on: completed");
    expect(rerun.stdout).toContain('asker already_committed');
    expect(rows(org, "SELECT tick, status FROM turns WHERE agent = 'asker'")).toEqual([
      { tick: 1, status: 'completed' },
    ]);
  });
});
