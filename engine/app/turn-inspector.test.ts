import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HumanInbox } from '../messages/human-inbox';
import { tempOrgs } from '../run/test-support/temp-org';
import { openTimeline, type TimelineStore } from '../timeline/timeline-store';
import { buildInspectorOrg, runInspectorOrg } from './test-support/inspector-org';
import { main } from '../cli/main';
import { cliConfigDir } from '../cli/test-support/run-cli';
import { agentTurns, tickTurns, turnDetail } from './turn-inspector';

const orgs = tempOrgs();
const stores: TimelineStore[] = [];
const readOnlyFolders: string[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const folder of readOnlyFolders.splice(0)) chmodSync(folder, 0o755);
  orgs.cleanup();
});

const runTicks = runInspectorOrg;

/** The org's timeline as another machine would open it: read-only, in a folder it may not write. */
function readOnlyTimeline(org: string): TimelineStore {
  const folder = join(org, '.lemming');
  chmodSync(folder, 0o555);
  readOnlyFolders.push(folder);
  const opened = openTimeline(join(folder, 'timeline.sqlite'), { readonly: true });
  if (!opened.ok) throw new Error(opened.error.message);
  stores.push(opened.timeline);
  return opened.timeline;
}

describe('the turn inspector', () => {
  it('shows a turn as a tree: the prompt as chat, model calls with tokens and cost, each tool call with its result', async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 2);
    const timeline = readOnlyTimeline(org);

    const found = turnDetail(timeline, 'clerk', 1);
    if (!found.ok) throw new Error(found.error.message);
    const turn = found.value;
    expect(turn).toMatchObject({ agent: 'clerk', tick: 1, status: 'completed' });
    expect(turn.prompt.map((message) => message.part)).toEqual(['system', 'role', 'inbox', 'user']);
    expect(turn.prompt[1]!.content).toContain('You are clerk.');
    expect(turn.prompt[2]!.content).toContain('Please keep the ledger.');
    expect(turn.inboxFrom).toEqual(['human']);

    const calls = turn.steps.flatMap((step) => (step.type === 'model_call' ? [step.call] : []));
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.inputTokens).toBeGreaterThan(0);
      expect(call.outputTokens).toBeGreaterThan(0);
      expect(call.cost).toBeGreaterThan(0);
      expect(call.latencyMs).not.toBeNull();
    }
    // Each call records the prompt it was sent, not the conversation as it stood when the turn ended.
    const sent = calls.map(
      (call) => (JSON.parse(timeline.get(call.seq)!.json) as { prompt: unknown[] }).prompt,
    );
    expect(sent.map((prompt) => prompt.length)).toEqual([4, 6]);

    const tools = turn.steps.flatMap((step) => (step.type === 'tool_call' ? [step.call] : []));
    expect(tools.map(({ tool, success }) => ({ tool, success }))).toEqual([
      { tool: 'memory_write', success: true },
      { tool: 'file_read', success: false },
    ]);
    expect(tools[1]!.error).toMatch(/missing\.txt/);
    expect(tools.every((call) => call.resultSeq !== null && call.resultSeq > call.callSeq)).toBe(true);

    expect(turn.steps).toContainEqual(expect.objectContaining({ type: 'message', to: ['human'] }));
    expect(turn.steps).toContainEqual(expect.objectContaining({ type: 'memory_update', key: 'ledger' }));
    expect(turn.totals.modelCalls).toBe(2);
    expect(turn.totals.credits).toBeCloseTo(turn.spent!, 6);
    expect(turn.totals.credits).toBeGreaterThan(turn.totals.modelCost);
    // Every event of the turn is listed for its raw JSON, from turn_started to turn_completed.
    expect(turn.events[0]!.kind).toBe('turn_started');
    expect(turn.events.at(-1)!.kind).toBe('turn_completed');
    expect(turn.events.every((event) => event.known)).toBe(true);
  });

  it('keeps events of kinds it does not know in the tree, and answers not_found for a turn that is not there', async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 1);
    const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
    if (!opened.ok) throw new Error(opened.error.message);
    stores.push(opened.timeline);
    opened.timeline.append({ kind: 'telescope_reading', agent: 'herald', tick: 1, star: 'Vega' });

    const turn = turnDetail(opened.timeline, 'herald', 1);
    expect(turn.ok && turn.value.steps.at(-1)).toMatchObject({ type: 'other', kind: 'telescope_reading' });
    expect(turn.ok && turn.value.events.at(-1)).toMatchObject({ kind: 'telescope_reading', known: false });
    expect(turnDetail(opened.timeline, 'clerk', 7)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it("lists a tick's turns for the waterfall and an agent's newest turns", async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 2);
    const timeline = readOnlyTimeline(org);
    const tick = tickTurns(timeline, 1);
    expect(tick.turns.map((turn) => turn.agent).sort()).toEqual(['clerk', 'herald']);
    expect(tick.turns.every((turn) => turn.durationMs !== null && turn.offsetMs >= 0)).toBe(true);
    expect(agentTurns(timeline, 'clerk').turns.map((turn) => turn.tick)).toEqual([2, 1]);
  });

  it('shows a committed turn whose files could not be written as failed, as its agent’s state does', async () => {
    const org = buildInspectorOrg(orgs);
    // A file where herald's logs folder should be: its turns commit, then their log writes fail.
    rmSync(join(org, 'agents/herald/logs'), { recursive: true, force: true });
    writeFileSync(join(org, 'agents/herald/logs'), 'not a folder');
    await runTicks(org, 1);
    const timeline = readOnlyTimeline(org);
    const herald = (turns: { agent: string; status: string | null }[]) =>
      turns.find((turn) => turn.agent === 'herald')?.status;
    expect(herald(tickTurns(timeline, 1).turns)).toBe('failed');
    expect(agentTurns(timeline, 'herald').turns).toMatchObject([{ tick: 1, status: 'failed' }]);
    const detail = turnDetail(timeline, 'herald', 1);
    expect(detail.ok && detail.value.status).toBe('failed');
    expect(agentTurns(timeline, 'clerk').turns).toMatchObject([{ tick: 1, status: 'completed' }]);
  });

  it('reads a turn through the indexes: no step of its queries scans the events table', async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 1);
    const timeline = readOnlyTimeline(org);
    const plans = [
      ...timeline.explainPage({ agents: ['clerk'], tickFrom: 1, tickTo: 1, direction: 'asc' }),
      ...timeline.explainPage({ tickFrom: 1, tickTo: 1, kinds: ['turn_started', 'turn_completed'] }),
    ];
    expect(plans.filter((step) => /SCAN events\b(?! USING)/.test(step))).toEqual([]);
  });
});

describe("the human's inbox", () => {
  it('holds messages that name the human and notes to everyone from agents the human reads, with read marks', async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 1);
    const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
    if (!opened.ok) throw new Error(opened.error.message);
    stores.push(opened.timeline);
    const inbox = new HumanInbox(opened.timeline.db, false);
    inbox.catchUp();

    const readsClerk = { all: false, senders: ['clerk'] } as const;
    expect(inbox.page(readsClerk, { limit: 10 }).map((row) => row.sender)).toEqual(['clerk']);
    // The herald's note to everyone reaches a human who reads every outbox.
    const readsAll = { all: true, except: 'human' } as const;
    expect(inbox.page(readsAll, { limit: 10 }).map((row) => [row.sender, row.addressed])).toEqual([
      ['herald', false],
      ['clerk', true],
    ]);
    expect(inbox.unreadCount(readsClerk)).toBe(1);
    const [report] = inbox.page(readsClerk, { limit: 1 });
    expect(inbox.markRead({ seqs: [report!.seq] }, new Date())).toBe(1);
    expect(inbox.unreadCount(readsClerk)).toBe(0);
    expect(inbox.unreadCount(readsAll)).toBe(1);

    // The read mark is in the org's timeline file: a new connection sees it.
    opened.timeline.close();
    const again = openTimeline(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
    if (!again.ok) throw new Error(again.error.message);
    stores.push(again.timeline);
    expect(new HumanInbox(again.timeline.db, true).page(readsClerk, { limit: 1 })[0]!.readAt).not.toBeNull();
  });
  it("keeps the human's replies under the message they answer, for every later reading", async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 1);
    const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
    if (!opened.ok) throw new Error(opened.error.message);
    stores.push(opened.timeline);
    const inbox = new HumanInbox(opened.timeline.db, false);
    inbox.catchUp();
    const [report] = inbox.page({ all: false, senders: ['clerk'] }, { limit: 1 });
    const reply = { id: 'reply-1', recipients: ['clerk'], payload: { text: 'Thanks, go on.' } };
    opened.timeline.db
      .prepare('INSERT INTO messages (id, sender, tick, kind, file, json) VALUES (?, ?, ?, ?, ?, ?)')
      .run(reply.id, 'human', 1, 'message', 'agents/human/outbox/reply-1.json', JSON.stringify(reply));
    inbox.recordReply(report!.seq, reply.id);
    inbox.recordReply(report!.seq, reply.id);

    expect(inbox.replies([report!.seq])).toEqual([
      { messageSeq: report!.seq, tick: 1, json: JSON.stringify(reply) },
    ]);
    expect(inbox.replies([report!.seq + 1000])).toEqual([]);
    opened.timeline.close();
    const again = openTimeline(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
    if (!again.ok) throw new Error(again.error.message);
    stores.push(again.timeline);
    expect(new HumanInbox(again.timeline.db, true).replies([report!.seq])).toHaveLength(1);
  });
});

describe('lemming turn', () => {
  it('shows a turn from an org whose folder it may not write', async () => {
    const org = buildInspectorOrg(orgs);
    await runTicks(org, 1);
    chmodSync(join(org, '.lemming'), 0o555);
    readOnlyFolders.push(join(org, '.lemming'));
    let stdout = '';
    const code = await main(['turn', org, 'clerk', '1'], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => undefined },
      env: { LEMMING_CONFIG_DIR: cliConfigDir() },
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^clerk at tick 1: completed/);
    expect(stdout).toContain('[user, inbox] INCOMING MESSAGES:');
    expect(stdout).toMatch(/tool memory_write .* -> ok: Saved memory key 'ledger'/);
    expect(stdout).toMatch(/tool file_read .* -> error: File 'missing\.txt' not found/);
  });
});
