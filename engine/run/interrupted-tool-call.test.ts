import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { turnDetail } from '../app/turn-inspector';
import { main } from '../cli/main';
import { cliConfigDir } from '../cli/test-support/run-cli';
import { openTimeline } from '../timeline/timeline-store';
import type { OtherTimelineEvent } from '../api/timeline-events';
import { envSecretStore } from '../secrets/env-secret-store';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { OrgEngine } from './org-engine';
import { bellOrg, callingOrg, runTicksInChild } from './test-support/bell-org';
import { tempOrgs } from './test-support/temp-org';

const orgs = tempOrgs();
afterAll(() => orgs.cleanup());

function eventsOf(org: string, kind: string): Record<string, any>[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { fileMustExist: true });
  try {
    return (
      db.prepare('SELECT json FROM events WHERE kind = ? ORDER BY seq').pluck().all(kind) as string[]
    ).map((json) => JSON.parse(json) as Record<string, any>);
  } finally {
    db.close();
  }
}

/** The tool calls of ada's turn at `tick` as the turn inspector shows them. */
function toolSteps(org: string, tick: number) {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    const detail = turnDetail(opened.timeline, 'ada', tick);
    if (!detail.ok) throw new Error(detail.error.message);
    return detail.value.steps.flatMap((step) => (step.type === 'tool_call' ? [step.call] : []));
  } finally {
    opened.timeline.close();
  }
}

const UNKNOWN_OUTCOME =
  'This call was started before the app stopped, and whether it finished is not known. It was not run again: check whether it took effect before you call it again.';

describe('a tool call that may change things, cut off by a kill', () => {
  it(
    'is recorded as about to run before it runs, and the turn run again tells the model its outcome is unknown instead of repeating it',
    { timeout: 60_000 },
    async () => {
      const { org, rings } = bellOrg(orgs, 2);
      // Tick 1 rings once; tick 2's ring never answers, and the engine is killed during it.
      expect(await runTicksInChild(org, 2, () => rings() === 2)).toEqual({ finished: false });
      expect(rings()).toBe(2);
      // The inspector shows the cut-off call for what it is.
      expect(toolSteps(org, 2)).toEqual([
        expect.objectContaining({ tool: 'mcp__bell__ring_bell', success: null, startedBeforeStop: true }),
      ]);

      expect(await runTicksInChild(org, 1, null)).toEqual({ finished: true });
      // Two committed turns, two rings: tick 2's bell was not rung again.
      expect(rings()).toBe(2);

      const intents = eventsOf(org, 'tool_intent');
      expect(intents.map((intent) => [intent.tick, intent.tool, intent.args])).toEqual([
        [1, 'mcp__bell__ring_bell', { room: 'hall' }],
        [2, 'mcp__bell__ring_bell', { room: 'hall' }],
      ]);
      const results = eventsOf(org, 'tool_result').filter((result) => result.tick === 2);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({
        tool: 'mcp__bell__ring_bell',
        result: { success: false, output: null, error: UNKNOWN_OUTCOME },
        started_before_stop: intents[1]!.call_id,
      });
      // The model was told so before its first call, and as the call's result.
      const firstRound = eventsOf(org, 'model_call').find((call) => call.tick === 2 && call.round === 1);
      expect(firstRound!.prompt.at(-1).content).toContain(
        'This turn was started once before and cut off when the app stopped. It had started these tool calls, and whether they finished is not known:\n- mcp__bell__ring_bell {"room":"hall"}',
      );
      const secondRound = eventsOf(org, 'model_call').find((call) => call.tick === 2 && call.round === 2);
      expect(secondRound!.prompt.at(-1)).toMatchObject({
        role: 'tool',
        content: expect.stringContaining(UNKNOWN_OUTCOME),
      });
      // One step for the bell of tick 2: the call not run again, its intent folded into it.
      expect(toolSteps(org, 2)).toEqual([
        expect.objectContaining({ success: false, error: UNKNOWN_OUTCOME, startedBeforeStop: true }),
      ]);
      let printed = '';
      const io = {
        stdout: { write: (text: string) => void (printed += text) },
        stderr: { write: () => undefined },
        env: { LEMMING_CONFIG_DIR: cliConfigDir() },
      };
      expect(await main(['turn', org, 'ada', '2'], io)).toBe(0);
      expect(printed).toContain(
        'tool mcp__bell__ring_bell {"room":"hall"} -> started before the app stopped; whether it finished is not known',
      );
      expect(toolSteps(org, 1)).toEqual([
        expect.objectContaining({ success: true, output: 'rang in the hall', startedBeforeStop: false }),
      ]);
      expect(eventsOf(org, 'turn_completed').map((turn) => [turn.tick, turn.status])).toEqual([
        [1, 'completed'],
        [2, 'completed'],
      ]);
    },
  );

  it('a call that only reads writes no intent; one that writes does, before the turn is committed', async () => {
    const org = callingOrg(
      orgs,
      [
        { id: 'r', name: 'file_read', arguments: { path: 'notes.md' } },
        { id: 'w', name: 'file_write', arguments: { path: 'notes.md', content: 'hello' } },
      ],
      ['file_read', 'file_write'],
    );
    const engine = await OrgEngine.open({ trust: await trustAsIs(org), orgPath: org, env: {} });
    try {
      expect((await engine.runTick()).turns).toEqual([{ agent: 'ada', status: 'completed' }]);
      const kinds = engine.timeline
        .page({ agents: ['ada'], direction: 'asc', limit: 100 })
        .rows.map((row) => [row.kind, (JSON.parse(row.json) as { tool?: string }).tool]);
      expect(kinds.filter(([kind]) => kind === 'tool_intent')).toEqual([['tool_intent', 'file_write']]);
      // Written when the call ran, ahead of the turn's own events, which wait for its commit.
      expect(kinds.findIndex(([kind]) => kind === 'tool_intent')).toBeLessThan(
        kinds.findIndex(([kind]) => kind === 'turn_started'),
      );
    } finally {
      engine.close();
    }
  });

  it('records the arguments redacted, and knows the call again by them when the turn runs again', async () => {
    const secret = 'sk-intent-4f1c9a27e0';
    const org = callingOrg(
      orgs,
      [{ id: 'w', name: 'file_write', arguments: { path: 'key.txt', content: `key ${secret}` } }],
      ['file_write'],
    );
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      secrets: envSecretStore({ LEMMING_SECRET_TOKEN: secret }),
    });
    const written = join(org, 'agents', 'ada', 'workspace', 'key.txt');
    try {
      await engine.runTick();
      const [intent] = engine.timeline
        .page({ kinds: ['tool_intent'], direction: 'asc', limit: 10 })
        .rows.map((row) => JSON.parse(row.json) as OtherTimelineEvent);
      expect(JSON.stringify(intent)).not.toContain(secret);
      expect(intent!.args).toEqual({ path: 'key.txt', content: 'key [redacted:TOKEN]' });
      expect(readFileSync(written, 'utf8')).toBe(`key ${secret}`);

      // What a kill during tick 2's write would have left: its intent, and no committed turn.
      rmSync(written);
      engine.timeline.appendMany([{ ...intent!, tick: 2, turn: '2:ada', call_id: 'before' }]);
      expect((await engine.runTick()).turns).toEqual([{ agent: 'ada', status: 'completed' }]);
      expect(existsSync(written)).toBe(false);
      const result = engine.timeline
        .page({ kinds: ['tool_result'], tickFrom: 2, tickTo: 2, direction: 'asc', limit: 10 })
        .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
      expect(result).toEqual([expect.objectContaining({ started_before_stop: 'before' })]);
    } finally {
      engine.close();
    }
  });
});
