import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FormRequest } from '../../api/approval-schemas';
import { ApprovalDesk, answerApproval } from '../../app/approvals';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { formProblems, formRequest, formTooLarge, withDefaults } from './mcp-elicitation';
import { callOnce, SCRIPTED_MODELS } from './test-support/mcp-cli';
import { referenceServers } from './test-support/reference-servers';
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

/** The conformance suite's SEP-1034 form: every field has a default, none is required. */
const DEFAULTS_FORM = formRequest('defaults', {
  message: 'please accept with defaults',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
      verified: { type: 'boolean', default: true },
    },
  },
});

describe('a form an MCP server asks for', () => {
  it('is read from its schema: each kind of field with its words, limits, choices and default', () => {
    const form = formRequest('s', {
      message: 'Who are you?',
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name', minLength: 2 },
          email: { type: 'string', format: 'email' },
          age: { type: 'integer', minimum: 0, maximum: 150 },
          hero: {
            type: 'string',
            oneOf: [
              { const: 'h1', title: 'Superman' },
              { const: 'h2', title: 'Wonder Woman' },
            ],
            default: 'h1',
          },
          pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] },
          tools: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 },
          agree: { type: 'boolean', default: false },
        },
        required: ['name'],
      },
    });
    expect(form.message).toBe('Who are you?');
    expect(form.fields).toEqual([
      { name: 'name', title: 'Name', required: true, type: 'text', minLength: 2 },
      { name: 'email', required: false, type: 'text', format: 'email' },
      { name: 'age', required: false, type: 'integer', minimum: 0, maximum: 150 },
      {
        name: 'hero',
        required: false,
        type: 'choice',
        choices: [
          { value: 'h1', label: 'Superman' },
          { value: 'h2', label: 'Wonder Woman' },
        ],
        default: 'h1',
      },
      {
        name: 'pet',
        required: false,
        type: 'choice',
        choices: [
          { value: 'p1', label: 'Cats' },
          { value: 'p2', label: 'Dogs' },
        ],
      },
      {
        name: 'tools',
        required: false,
        type: 'choices',
        choices: [
          { value: 'a', label: 'a' },
          { value: 'b', label: 'b' },
        ],
        maxLength: 1,
      },
      { name: 'agree', required: false, type: 'yes_no', default: false },
    ]);
    expect(
      formProblems(form, { name: 'x', email: 'not mail', age: 1.5, pet: 'p9', tools: ['a', 'b'], extra: 1 }),
    ).toEqual([
      { field: 'extra', message: 'is not a field of this form' },
      { field: 'name', message: 'needs at least 2 characters' },
      { field: 'email', message: 'must be an email address' },
      { field: 'age', message: 'must be a whole number' },
      { field: 'pet', message: 'must be one of the choices' },
      { field: 'tools', message: 'allows at most 1 chosen' },
    ]);
    expect(formProblems(form, {})).toEqual([{ field: 'name', message: 'must be filled in' }]);
  });

  it('is too large to show with more than 50 fields or a text past 4000 characters', () => {
    const fields = (count: number) =>
      Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`f${index}`, { type: 'string' as const }]),
      );
    const form = (properties: Record<string, { type: 'string' }>, message = 'fill') =>
      formRequest('s', { message, requestedSchema: { type: 'object', properties } });
    expect(formTooLarge(form(fields(50)))).toBe(false);
    expect(formTooLarge(form(fields(51)))).toBe(true);
    expect(formTooLarge(form(fields(1), 'x'.repeat(4001)))).toBe(true);
  });

  it('gets the defaults of the fields left out, as SEP-1034 says', () => {
    expect(withDefaults(DEFAULTS_FORM, { age: 41 })).toEqual({
      name: 'John Doe',
      age: 41,
      score: 95.5,
      status: 'active',
      verified: true,
    });
    expect(formProblems(DEFAULTS_FORM, {})).toEqual([]);
  });
});

/** An org whose agent ada calls `tool` of the reference server "everything" in the first round of each turn. */
async function everythingOrg(
  tool: string,
  args: Record<string, unknown> = {},
  desk?: ApprovalDesk,
  entry: Record<string, unknown> = {},
) {
  const org = orgs.build({
    'lemming/config/models.json': SCRIPTED_MODELS,
    'lemming/config/mcp.json': { mcpServers: { everything: { ...referenceServers.everything(), ...entry } } },
    'script.json': callOnce(`mcp__everything__${tool}`, args),
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:everything'] },
    }),
  });
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
    ...(desk ? { approvals: desk } : {}),
  });
  engines.push(engine);
  return engine;
}

function events(engine: OrgEngine, kind: string) {
  return engine.timeline
    .page({ kinds: [kind], direction: 'asc', cursor: null, limit: 100 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

/** Runs a tick: approves the call, then hands the form it asks for to `fill`. */
async function tickWithForm(
  engine: OrgEngine,
  desk: ApprovalDesk,
  fill: (form: FormRequest, id: string) => unknown,
) {
  const tick = engine.runTick();
  const call = await until(() => desk.pending().find((request) => !request.form), 'the approval request', {
    timeoutMs: 30_000,
  });
  await desk.answer({ id: call.id, answer: 'approve_once' });
  const asked = await until(() => desk.pending().find((request) => request.form), 'the form', {
    timeoutMs: 30_000,
  });
  await fill(asked.form!, asked.id);
  await tick;
  return asked;
}

describe('elicitation: a server asks the person, the way a call is approved', { timeout: 60_000 }, () => {
  it('the form goes to the approval cards with the agent and tool; what the person fills in reaches the server, defaults added', async () => {
    const desk = new ApprovalDesk(() => {});
    const engine = await everythingOrg('trigger-elicitation-request', {}, desk);
    const asked = await tickWithForm(engine, desk, async (form, id) => {
      const wrong = await answerApproval(desk, {
        id,
        answer: 'approve_once',
        values: { name: 'Ada', integer: 500 },
      });
      expect(wrong).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', issues: [{ path: 'integer', message: 'must be at most 100' }] },
      });
      expect(form.fields.find((field) => field.name === 'legacyTitledEnum')).toMatchObject({
        type: 'choice',
        default: 'pet-1',
        choices: expect.arrayContaining([{ value: 'pet-2', label: 'Dogs' }]),
      });
      expect(
        (await answerApproval(desk, { id, answer: 'approve_once', values: { name: 'Ada Lovelace' } })).ok,
      ).toBe(true);
    });
    expect(asked).toMatchObject({
      agent: 'ada',
      tool: 'mcp__everything__trigger-elicitation-request',
      form: { server: 'everything', message: 'Please provide inputs for the following fields:' },
    });
    const [result] = events(engine, 'tool_result');
    expect(result!.result.success).toBe(true);
    expect(result!.result.output).toContain('- Name: Ada Lovelace');
    expect(result!.result.output).toContain('- Favorite Integer: 42');
    expect(result!.result.output).toContain('- Favorite Number: 3.14');
    const answered = events(engine, 'approval_answered');
    expect(answered.at(-1)).toMatchObject({
      answer: 'approve_once',
      source: 'person',
      values: { name: 'Ada Lovelace' },
    });
    expect(events(engine, 'approval_requested').at(-1)).toMatchObject({ form: { server: 'everything' } });
  });

  it('declining tells the server "decline"; closing the card unanswered tells it "cancel"', async () => {
    const desk = new ApprovalDesk(() => {});
    const engine = await everythingOrg('trigger-elicitation-request', {}, desk);
    await tickWithForm(engine, desk, (_, id) => desk.answer({ id, answer: 'deny' }));
    await tickWithForm(engine, desk, (_, id) => desk.answer({ id, answer: 'deny', dismissed: true }));
    const [declined, cancelled] = events(engine, 'tool_result');
    expect(declined!.result.output).toContain('User declined');
    expect(cancelled!.result.output).toContain('User cancelled');
  });

  it("the call's time does not run while the person fills in the form", async () => {
    const desk = new ApprovalDesk(() => {});
    const engine = await everythingOrg('trigger-elicitation-request', {}, desk, { call_timeout_ms: 1000 });
    await tickWithForm(engine, desk, (_, id) => {
      setTimeout(
        () => void desk.answer({ id, answer: 'approve_once', values: { name: 'Slow Typist' } }),
        2500,
      );
    });
    const [result] = events(engine, 'tool_result');
    expect(result!.result.output).toContain('- Name: Slow Typist');
  });

  it('with no one to ask (a call no person answers for) the form is declined', async () => {
    const engine = await everythingOrg('trigger-elicitation-request');
    const result = await engine.callTool('ada', 'mcp__everything__trigger-elicitation-request', {});
    expect(result.output).toContain('User declined');
  });
});

describe('a server asking when none of its calls runs', () => {
  it('is declined without being put in front of the person', { timeout: 60_000 }, async () => {
    const org = orgs.build({
      'lemming/config/mcp.json': {
        mcpServers: {
          asking: {
            command: process.execPath,
            args: [join(import.meta.dirname, 'test-support', 'asking-server.mjs')],
          },
        },
      },
      'agents/ada/resume.json': resume('ada', {
        permissions: { read_outboxes: [], tools: ['group:mcp:asking'] },
      }),
    });
    const engine = await OrgEngine.open({ trust: await trustAsIs(org), orgPath: org, env: {} });
    engines.push(engine);
    // As during a run: the server stays up between calls.
    expect(await engine.claimRun()).toEqual({ ok: true, value: undefined });
    const desk = new ApprovalDesk(() => {});
    expect((await engine.callTool('ada', 'mcp__asking__ask_later', {}, desk)).output).toBe('will ask later');
    let got = 'nothing yet';
    for (let waited = 0; got === 'nothing yet' && waited < 5_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      got = (await engine.callTool('ada', 'mcp__asking__what_came_back', {})).output ?? '';
    }
    expect(got).toBe('decline');
    expect(desk.pending()).toEqual([]);
  });
});
