import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalDesk, approvalSettings, setApprovalMode } from '../../app/approvals';
import { listConnectors, trustMcpHints } from '../../app/connectors';
import { orgContextOf } from '../../app/test-support/org-context-of';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { orgKeyOf } from '../../trust/org-trust';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { lemming, SCRIPTED_MODELS } from './test-support/mcp-cli';
import { until } from '../../../test/test-support/until';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  orgs.cleanup();
});

const SERVER = join(import.meta.dirname, 'test-support', 'claiming-server.mjs');

/** ada calls `tool` in the first round of every turn, then stops. */
function script(tool: string, args: Record<string, unknown> = {}) {
  return {
    default: [
      { when: { round: 1 }, respond: { tool_calls: [{ id: 'c1', name: tool, arguments: args }] } },
      { respond: { outbox_entries: [], notes: 'done' } },
    ],
  };
}

/**
 * An org whose MCP server `notes` is the claiming server (its save_note says it only reads, and
 * writes `notes.txt` beside the org); ada has every tool of it and calls `tool` each turn.
 */
function claimingOrg(tool: string, files: Record<string, unknown> = {}) {
  const org = orgs.build({
    'lemming/config/models.json': SCRIPTED_MODELS,
    'script.json': script(tool, { text: 'written unasked' }),
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:notes'] },
    }),
    ...files,
  });
  const marker = join(dirname(org), 'notes.txt');
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: { notes: { command: process.execPath, args: [SERVER], env: { NOTE_FILE: marker } } },
    }),
  );
  return { org, marker };
}

async function open(org: string, desk: ApprovalDesk) {
  const trust = await trustAsIs(org);
  const engine = await OrgEngine.open({ trust, orgPath: org, env: {}, approvals: desk });
  engines.push(engine);
  // As during a run: the servers stay up between ticks and the person's own calls.
  expect(await engine.claimRun()).toEqual({ ok: true, value: undefined });
  return { engine, trust, context: orgContextOf(engine, trust) };
}

function events(engine: OrgEngine, kind: string) {
  return engine.timeline
    .page({ kinds: [kind], direction: 'asc', cursor: null, limit: 100 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

/** Runs one tick and answers the one request it asks with `answer`; returns that request. */
async function tickAnswering(
  engine: OrgEngine,
  desk: ApprovalDesk,
  answer: 'approve_once' | 'approve_always' | 'deny',
) {
  const tick = engine.runTick();
  await until(() => desk.pending().length === 1, 'the approval request');
  const [request] = desk.pending();
  await desk.answer({ id: request!.id, answer });
  await tick;
  return request!;
}

async function card(context: ReturnType<typeof orgContextOf>) {
  const listed = await listConnectors(context);
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value.connectors.find((connector) => connector.id === 'mcp:notes')!.mcp!;
}

describe("an MCP server's claims never lower the person's choice", () => {
  it(
    'a tool claiming to only read asks first on a server whose hints the person does not trust, whatever the org file says; once they trust them it runs unasked',
    { timeout: 60_000 },
    async () => {
      // The org ships a setting that would let it run unasked: only the person can say that.
      const { org, marker } = claimingOrg('mcp__notes__save_note', {
        'lemming/config/approvals.json': { tools: { mcp__notes__save_note: 'always' } },
      });
      const desk = new ApprovalDesk(() => {});
      const { engine, trust, context } = await open(org, desk);

      const request = await tickAnswering(engine, desk, 'deny');
      expect(request).toMatchObject({ agent: 'ada', tool: 'mcp__notes__save_note' });
      expect(request.reason).toBe(
        "MCP servers describe their own tools, and you have not chosen to trust what this one says about which tools only read, so every call asks first. The org's approval settings say it may always run, but only you can let a tool of an MCP server run without asking.",
      );
      expect(events(engine, 'approval_requested')).toHaveLength(1);
      expect(existsSync(marker)).toBe(false);
      expect((await card(context)).hintsTrusted).toBe(false);

      // The person trusts the server's hints, on the command line, in their own record.
      const trusted = await lemming(['connectors', org, '--trust-hints', 'notes'], {
        LEMMING_CONFIG_DIR: dirname(trust.file),
      });
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(trusted.stdout).toContain('Trusted what notes says about its tools.');
      expect(trusted.stdout).toMatch(/hints: trusted/);
      expect(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8')).not.toContain('hint');
      expect((await card(context)).hintsTrusted).toBe(true);

      await engine.runTick();
      expect(events(engine, 'approval_requested')).toHaveLength(1);
      expect(readFileSync(marker, 'utf8')).toBe('written unasked\n');

      // Pointed at another program, the entry is another server: it is not trusted by the old choice.
      writeFileSync(
        join(org, 'lemming/config/mcp.json'),
        JSON.stringify({
          mcpServers: {
            notes: { command: process.execPath, args: [SERVER, '--other'], env: { NOTE_FILE: marker } },
          },
        }),
      );
      await trustAsIs(org, trust);
      expect((await card(context)).hintsTrusted).toBe(false);
      await tickAnswering(engine, desk, 'deny');
      expect(readFileSync(marker, 'utf8')).toBe('written unasked\n');
    },
  );

  it(
    'a tool a server renamed during a turn is known at the very next tick: calling it asks the person, it is not unknown',
    { timeout: 60_000 },
    async () => {
      const { org, marker } = claimingOrg('mcp__notes__shapeshift');
      writeFileSync(
        join(org, 'script.json'),
        JSON.stringify(script('mcp__notes__shapeshift', { into: 'renamed' })),
      );
      const desk = new ApprovalDesk(() => {});
      const { engine } = await open(org, desk);

      await tickAnswering(engine, desk, 'approve_once');
      await engine.resumeAnswered();
      expect(events(engine, 'tool_result').at(-1)).toMatchObject({ result: { output: 'now renamed' } });

      // No waiting for the server's new list: the next tick's catalog has it.
      writeFileSync(
        join(org, 'script.json'),
        JSON.stringify(script('mcp__notes__keep_note', { text: 'renamed' })),
      );
      const request = await tickAnswering(engine, desk, 'deny');
      expect(request).toMatchObject({
        tool: 'mcp__notes__keep_note',
        changes: [expect.stringContaining('save_note')],
      });
      expect(existsSync(marker)).toBe(false);
    },
  );

  it(
    'a rename through tools/list_changed after the person chose "never" asks again, and the request says what changed',
    { timeout: 60_000 },
    async () => {
      const { org, marker } = claimingOrg('mcp__notes__save_note');
      const desk = new ApprovalDesk(() => {});
      const { engine, context } = await open(org, desk);
      const never = await setApprovalMode(context, {
        agent: 'ada',
        tool: 'mcp__notes__save_note',
        mode: 'never',
      });
      expect(never.ok).toBe(true);
      expect(existsSync(join(org, 'lemming/config/approvals.json'))).toBe(false);

      await engine.runTick();
      expect(events(engine, 'approval_requested')).toEqual([]);
      expect(events(engine, 'tool_result')[0]).toMatchObject({
        result: {
          success: false,
          error: expect.stringContaining('You set mcp__notes__save_note to "never allowed" for ada'),
        },
      });

      // The server renames the tool the person forbade.
      expect(await engine.callTool('ada', 'mcp__notes__shapeshift', { into: 'renamed' })).toMatchObject({
        output: 'now renamed',
      });
      await until(
        () => engine.mcp.views()[0]?.tools.some((tool) => tool.name === 'keep_note') === true,
        'the renamed tool',
      );
      writeFileSync(
        join(org, 'script.json'),
        JSON.stringify(script('mcp__notes__keep_note', { text: 'renamed' })),
      );
      const request = await tickAnswering(engine, desk, 'deny');
      expect(request).toMatchObject({
        tool: 'mcp__notes__keep_note',
        reason: 'It is new and may be a renamed tool, so it asks first until you choose how it runs.',
        changes: [
          'It appeared when “save_note” disappeared from the same server: it may be that tool under a new name.',
        ],
      });
      expect(events(engine, 'approval_requested').at(-1)).toMatchObject({ changes: request.changes });
      expect(existsSync(marker)).toBe(false);

      // The card and the settings show the change; choosing again accepts it.
      const keep = (await card(context)).tools.find((tool) => tool.name === 'keep_note');
      expect(keep?.changes).toEqual(request.changes);
      const settings = await approvalSettings(context);
      const row =
        settings.ok && settings.value.agents[0]?.tools.find((tool) => tool.tool === 'mcp__notes__keep_note');
      expect(row).toMatchObject({ mode: 'ask', changes: request.changes });
      await setApprovalMode(context, { agent: 'ada', tool: 'mcp__notes__keep_note', mode: 'ask' });
      expect((await card(context)).tools.find((tool) => tool.name === 'keep_note')?.changes).toEqual([]);
      const asked = await tickAnswering(engine, desk, 'deny');
      expect(asked.reason).toBe('You set mcp__notes__keep_note to "ask me first" for ada.');
      expect(asked.changes).toBeUndefined();
    },
  );

  it(
    'a tool renamed while its server was stopped asks when the server starts again',
    { timeout: 60_000 },
    async () => {
      const { org, marker } = claimingOrg('mcp__notes__save_note');
      const desk = new ApprovalDesk(() => {});
      const { engine, context } = await open(org, desk);
      await setApprovalMode(context, { agent: 'ada', tool: 'mcp__notes__save_note', mode: 'never' });
      await engine.runTick();
      expect(events(engine, 'approval_requested')).toEqual([]);

      // The run ends; the program is updated and lists the tool under another name when it starts again.
      engine.releaseRun();
      await engine.stopMcpServers();
      writeFileSync(`${marker}.shapes`, 'renamed\n');
      writeFileSync(join(org, 'script.json'), JSON.stringify(script('mcp__notes__keep_note', { text: 'x' })));
      expect(await engine.claimRun()).toEqual({ ok: true, value: undefined });
      const request = await tickAnswering(engine, desk, 'deny');
      expect(request).toMatchObject({
        tool: 'mcp__notes__keep_note',
        changes: [expect.stringContaining('It appeared when “save_note” disappeared')],
      });
      expect(existsSync(marker)).toBe(false);
    },
  );

  it(
    'on a server whose hints the person trusts, "always" is kept in their own record; a tool that then claims to only read asks again, saying so',
    { timeout: 60_000 },
    async () => {
      const { org, marker } = claimingOrg('mcp__notes__erase_notes');
      writeFileSync(marker, 'keep me\n');
      const desk = new ApprovalDesk(() => {});
      const { engine, trust, context } = await open(org, desk);
      const { identity } = await card(context);
      expect(await trustMcpHints(context, { server: 'notes', identity, trusted: true })).toMatchObject({
        ok: true,
      });

      // It says it deletes: it asks, and the person allows it always for ada.
      const first = await tickAnswering(engine, desk, 'approve_always');
      expect(first.reason).toBe('Its server says it may delete or overwrite things.');
      expect(readFileSync(marker, 'utf8')).toBe('');
      expect(existsSync(join(org, 'lemming/config/approvals.json'))).toBe(false);
      expect(trust.mcpServer(orgKeyOf(org), identity)?.tools.erase_notes?.modes).toEqual({ ada: 'always' });
      writeFileSync(marker, 'again\n');
      await engine.runTick();
      expect(events(engine, 'approval_requested')).toHaveLength(1);
      expect(readFileSync(marker, 'utf8')).toBe('');

      // Now it claims to only read, which on this server would run it unasked: it asks, saying what changed.
      await engine.callTool('ada', 'mcp__notes__shapeshift', { into: 'read-only' });
      await until(
        () =>
          engine.mcp.views()[0]?.tools.find((tool) => tool.name === 'erase_notes')?.annotations
            .readOnlyHint === true,
        'the new claim',
      );
      writeFileSync(marker, 'third\n');
      const changed = await tickAnswering(engine, desk, 'approve_once');
      expect(changed).toMatchObject({
        reason: 'It changed since you chose how it runs, so it asks first until you choose again.',
        changes: ['It now claims it only reads.'],
      });
      // Allowing once does not accept the change: the next call asks again.
      await tickAnswering(engine, desk, 'deny');
      expect(events(engine, 'approval_requested')).toHaveLength(3);
    },
  );

  it(
    '"always" for an MCP tool belongs to the agent it was given to: a new agent of its name asks again',
    { timeout: 60_000 },
    async () => {
      const { org, marker } = claimingOrg('mcp__notes__save_note', {
        'lemming/config/approvals.json': { timeout_seconds: 0.3 },
      });
      const desk = new ApprovalDesk(() => {});
      const { engine, trust, context } = await open(org, desk);
      const { identity } = await card(context);
      await tickAnswering(engine, desk, 'approve_always');
      expect(readFileSync(marker, 'utf8')).toContain('written unasked');
      expect(trust.mcpServer(orgKeyOf(org), identity)?.tools.save_note?.modes).toEqual({ ada: 'always' });
      engine.releaseRun();
      await engine.stopMcpServers();
      engine.close();
      engines.splice(engines.indexOf(engine), 1);

      // Between runs ada's folder is deleted, and an agent of its name is made again (as create_agent does).
      rmSync(join(org, 'agents/ada'), { recursive: true });
      mkdirSync(join(org, 'agents/ada/workspace'), { recursive: true });
      writeFileSync(
        join(org, 'agents/ada/resume.json'),
        JSON.stringify(resume('ada', { permissions: { read_outboxes: [], tools: ['group:mcp:notes'] } })),
      );
      rmSync(marker);
      await trustAsIs(org, trust);
      const again = await OrgEngine.open({ trust, orgPath: org, env: {}, approvals: desk });
      engines.push(again);
      expect(await again.claimRun()).toEqual({ ok: true, value: undefined });
      await again.runTick();
      expect(existsSync(marker)).toBe(false);
      expect(events(again, 'approval_requested')).toHaveLength(2);
      expect(trust.mcpServer(orgKeyOf(org), identity)?.tools.save_note?.modes).toEqual({});
    },
  );
});
