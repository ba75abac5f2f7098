import { dirname, join } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listConnectors } from '../../app/connectors';
import { orgContextOf } from '../../app/test-support/org-context-of';
import { turnDetail } from '../../app/turn-inspector';
import { fromMicros } from '../../credits/credit-amount';
import type { LoopbackServer } from '../../models/test-support/loopback-server';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import type { TrustStore } from '../../trust/trust-store';
import { MCP_QUESTIONS_PER_CALL } from '../../api/tool-schemas';
import { QUESTION_MAX_CHARACTERS, serverQuestion } from './mcp-sampling';
import { lemming } from './test-support/mcp-cli';
import { referenceServers } from './test-support/reference-servers';
import { questionsTo, samplingModelServer } from './test-support/sampling-model';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  for (const server of servers.splice(0)) await server.close();
  orgs.cleanup();
});

const SAMPLING_SERVER = {
  command: process.execPath,
  args: [join(import.meta.dirname, 'test-support', 'sampling-server.mjs')],
};
interface SamplingOrg {
  tool: string;
  questionsFail?: boolean;
  args?: Record<string, unknown>;
  mcp: Record<string, unknown>;
  credits?: number;
  input?: string[];
}

/** An org whose agent ada (1 credit a token, 50 tokens at most an answer) calls `tool` once in a turn. */
async function samplingOrg({
  tool,
  args = {},
  mcp,
  credits = 10_000,
  input,
  questionsFail = false,
}: SamplingOrg) {
  const model = await samplingModelServer(tool, args, { questionsFail });
  servers.push(model);
  const org = orgs.build({
    'lemming/config/models.json': {
      v: {
        provider: 'openai-compatible',
        model_name: 'v',
        stream: false,
        ...(input ? { input } : {}),
        provider_config: {
          base_url: `${model.url}/v1`,
          max_retries: 0,
          prices: { input_per_million: 1_000_000, output_per_million: 1_000_000 },
        },
      },
    },
    'lemming/config/mcp.json': { mcpServers: mcp },
    'lemming/config/credits.json': { ada: { model: 'v', cost_per_action: 0, credits_left: credits } },
    'agents/ada/resume.json': resume('ada', {
      model: { key: 'v', max_tokens: 50 },
      permissions: { read_outboxes: [], tools: Object.keys(mcp).map((server) => `group:mcp:${server}`) },
    }),
  });
  const trust = await trustAsIs(org);
  const engine = await OrgEngine.open({ trust, orgPath: org, env: {} });
  engines.push(engine);
  return { org, model, trust, engine, context: orgContextOf(engine, trust) };
}

/** The person lets the server ask their models, on the command line, in their own record. */
async function allowOnCommandLine(org: string, trust: TrustStore, server: string) {
  const allowed = await lemming(['connectors', org, '--allow-sampling', server], {
    LEMMING_CONFIG_DIR: dirname(trust.file),
  });
  expect(allowed.code, allowed.stderr).toBe(0);
  return allowed.stdout;
}

function events(engine: OrgEngine, kind: string) {
  return engine.timeline
    .page({ kinds: [kind], direction: 'asc', cursor: null, limit: 100 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

async function card(context: ReturnType<typeof orgContextOf>, server: string) {
  const listed = await listConnectors(context);
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.value.connectors.find((connector) => connector.id === `mcp:${server}`)!.mcp!;
}

describe('an MCP server asking the models (sampling)', { timeout: 60_000 }, () => {
  it('allowed by the person, the reference server’s question is answered by the agent’s model in its turn, paid by the agent and recorded under the call', async () => {
    const tool = 'mcp__everything__trigger-sampling-request';
    const { org, model, trust, engine, context } = await samplingOrg({
      tool,
      args: { prompt: 'the capital of France', maxTokens: 5000 },
      mcp: { everything: referenceServers.everything() },
    });
    // Off by default: the server is never told it may ask, so it does not offer its tool.
    const before = await card(context, 'everything');
    expect(before.samplingAllowed).toBe(false);
    expect(before.tools.map((listed) => listed.name)).not.toContain('trigger-sampling-request');

    const said = await allowOnCommandLine(org, trust, 'everything');
    expect(said).toContain('everything may now ask your models');
    expect(said).toContain('models: it may ask your models');
    // Listing the cards starts it again with the new choice: now it offers the tool.
    const after = await card(context, 'everything');
    expect(after.samplingAllowed).toBe(true);
    expect(after.tools.map((listed) => listed.name)).toContain('trigger-sampling-request');

    await engine.runTick();
    const [result] = events(engine, 'tool_result');
    expect(result!.result.output).toContain('"text": "Paris"');
    expect(result!.result.output).toContain('"model": "v"');

    // The server's system prompt and message, at the agent's own token limit (it asked for 5000).
    const [question] = questionsTo(model);
    expect(question!.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: the capital of France' },
    ]);
    expect(question!.max_tokens).toBe(50);
    expect(JSON.stringify(question)).not.toContain('"tools"');

    // A model call of the turn, saying who asked during which call, between the call and its result.
    const asked = events(engine, 'model_call').find((call) => call.asked_by)!;
    expect(asked).toMatchObject({
      agent: 'ada',
      round: 1,
      cost: 22,
      response: { text: 'Paris' },
      asked_by: { server: 'everything', call_id: 'c1', tool },
    });
    const credit = events(engine, 'credit').find((entry) => entry.reason.includes('everything'))!;
    expect(credit).toMatchObject({
      amount: -22,
      reason: `a question the MCP server everything asked during ${tool} (20 in, 2 out)`,
    });
    const spent = events(engine, 'credit').reduce((sum, entry) => sum - entry.amount, 0);
    expect(spent).toBe(15 + 22 + 15);
    expect(fromMicros(engine.ledger.balance('ada')!)).toBe(10_000 - spent);

    // The inspector shows it as asked by the server during that call.
    const detail = turnDetail(engine.timeline, 'ada', 1);
    if (!detail.ok) throw new Error(detail.error.message);
    const calls = detail.value.steps.filter(
      (step) => step.type === 'model_call' || step.type === 'tool_call',
    );
    const kinds = calls.map((step) =>
      step.type === 'model_call' ? (step.call.askedBy ? 'asked by server' : 'model') : step.type,
    );
    expect(kinds).toEqual(['model', 'tool_call', 'asked by server', 'model']);
    const askedStep = calls[2]!;
    expect(askedStep.type === 'model_call' && askedStep.call.askedBy).toEqual({
      server: 'everything',
      callId: 'c1',
      tool,
    });
  });

  it('not allowed, a server asking anyway is declined with how to allow it, and no model is asked', async () => {
    // A hostile org file says the server may ask: only the person can say that.
    const { model, engine, context, trust, org } = await samplingOrg({
      tool: 'mcp__sampling__ask',
      args: { question: 'Capital of France?' },
      mcp: {
        sampling: { ...SAMPLING_SERVER, sampling: true, samplingAllowed: true, allowSampling: true },
      },
    });
    expect((await card(context, 'sampling')).samplingAllowed).toBe(false);
    await engine.runTick();
    const [result] = events(engine, 'tool_result');
    expect(result!.result.output).toBe(
      'refused: MCP error -1: the person using this app has not let the MCP server sampling ask their models. They can allow it with "Let this server ask your models" on its card in the Tool Store, or with lemming connectors <org> --allow-sampling sampling',
    );
    expect(questionsTo(model)).toEqual([]);
    expect(events(engine, 'model_call').filter((call) => call.asked_by)).toEqual([]);
    const [declined] = events(engine, 'warning').filter((entry) => entry.code === 'mcp_sampling_declined');
    expect(declined!.message).toContain(
      "The MCP server sampling asked ada's model a question during mcp__sampling__ask; it was declined: the person using this app has not let",
    );
    expect(readFileSync(trust.file, 'utf8')).not.toContain('samplingAllowed');
    expect(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8')).toContain('samplingAllowed');
  });

  it(`a call may ask at most ${MCP_QUESTIONS_PER_CALL} questions; the rest are declined, saying why`, async () => {
    const { org, model, trust, engine } = await samplingOrg({
      tool: 'mcp__sampling__ask',
      args: { question: 'Again?', times: 5 },
      mcp: { sampling: SAMPLING_SERVER },
    });
    await allowOnCommandLine(org, trust, 'sampling');
    await engine.runTick();
    const lines = events(engine, 'tool_result')[0]!.result.output.split('\n');
    expect(lines).toEqual([
      ...Array(MCP_QUESTIONS_PER_CALL).fill('answer (v, endTurn): Paris'),
      ...Array(5 - MCP_QUESTIONS_PER_CALL).fill(
        `refused: MCP error -1: it already asked ${MCP_QUESTIONS_PER_CALL} questions during this one tool call, the most one call may ask (so a server asking again and again cannot use up the agent's credits)`,
      ),
    ]);
    expect(questionsTo(model)).toHaveLength(MCP_QUESTIONS_PER_CALL);
    // What it asked for and was not done is kept in the record: other conversations, a model hint.
    expect(events(engine, 'model_call').find((call) => call.asked_by)!.asked_by).toMatchObject({
      include_context: 'allServers',
      model_preferences: { hints: [{ name: 'claude-3-sonnet' }] },
    });
    expect(events(engine, 'warning').filter((entry) => entry.code === 'mcp_sampling_declined')).toHaveLength(
      5 - MCP_QUESTIONS_PER_CALL,
    );
  });

  it('an agent that cannot pay for the answer is declined in words, and no model is asked', async () => {
    // 5000 credits pay for ada's own calls, not for a question of some 10 000 tokens.
    const { org, model, trust, engine } = await samplingOrg({
      tool: 'mcp__sampling__ask',
      args: { question: 'x'.repeat(30_000) },
      mcp: { sampling: SAMPLING_SERVER },
      credits: 5_000,
    });
    await allowOnCommandLine(org, trust, 'sampling');
    await engine.runTick();
    const output = events(engine, 'tool_result')[0]!.result.output;
    expect(output).toMatch(
      /^refused: MCP error -1: ada does not have the credits for it \(up to [\d.]+ needed, [\d.]+ left\)$/,
    );
    expect(questionsTo(model)).toEqual([]);
  });

  it("a model that fails to answer is the server's refusal and a failed model call of the turn, not a failed turn", async () => {
    const { org, trust, engine } = await samplingOrg({
      tool: 'mcp__sampling__ask',
      args: { question: 'Capital of France?' },
      mcp: { sampling: SAMPLING_SERVER },
      questionsFail: true,
    });
    await allowOnCommandLine(org, trust, 'sampling');
    const report = await engine.runTick();
    expect(report.turns).toEqual([{ agent: 'ada', status: 'completed' }]);
    expect(events(engine, 'tool_result')[0]!.result.output).toMatch(
      /^refused: MCP error -1: ada's model could not answer: .*500/,
    );
    expect(events(engine, 'model_call').find((call) => call.asked_by)).toMatchObject({
      asked_by: { server: 'sampling', call_id: 'c1' },
      error: { status: 500 },
    });
  });

  it('a question asked while no call of the server runs is declined, and one with a picture reaches a model that takes pictures with it', async () => {
    const { org, model, trust, engine } = await samplingOrg({
      tool: 'mcp__sampling__ask_with_image',
      mcp: { sampling: SAMPLING_SERVER },
      input: ['text', 'image'],
    });
    await allowOnCommandLine(org, trust, 'sampling');
    await engine.runTick();
    const [question] = questionsTo(model);
    expect(question!.messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What colour is this?' },
        { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBOR/) } },
      ],
    });

    expect(await engine.claimRun()).toEqual({ ok: true, value: undefined });
    expect((await engine.callTool('ada', 'mcp__sampling__ask_later', {})).output).toBe('will ask later');
    let got = 'nothing yet';
    for (let waited = 0; got === 'nothing yet' && waited < 5_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      got = (await engine.callTool('ada', 'mcp__sampling__what_came_back', {})).output ?? '';
    }
    expect(got).toBe(
      'refused: MCP error -1: it asked while none of its tool calls was running; a server may ask only during a tool call, and the model of the agent that made the call answers',
    );
    // Tried by hand (outside a turn), there is no agent's model to answer.
    expect((await engine.callTool('ada', 'mcp__sampling__ask', { question: 'hi' })).output).toContain(
      "refused: MCP error -1: its tool was called outside an agent's turn",
    );
    expect(questionsTo(model)).toHaveLength(1);
    engine.releaseRun();
  });

  it('a choice is kept for what the server is: pointed at another program, it is asked again; --deny-sampling takes it back', async () => {
    const { org, trust, context } = await samplingOrg({
      tool: 'mcp__sampling__ask',
      mcp: { sampling: SAMPLING_SERVER },
    });
    await allowOnCommandLine(org, trust, 'sampling');
    expect((await card(context, 'sampling')).samplingAllowed).toBe(true);
    const denied = await lemming(['connectors', org, '--deny-sampling', 'sampling'], {
      LEMMING_CONFIG_DIR: dirname(trust.file),
    });
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain('sampling may no longer ask your models.');
    expect(denied.stdout).toContain('models: it may not ask your models (--allow-sampling sampling');
    expect((await card(context, 'sampling')).samplingAllowed).toBe(false);

    await allowOnCommandLine(org, trust, 'sampling');
    writeFileSync(
      join(org, 'lemming/config/mcp.json'),
      JSON.stringify({
        mcpServers: { sampling: { ...SAMPLING_SERVER, args: [...SAMPLING_SERVER.args, '--other'] } },
      }),
    );
    await trustAsIs(org, trust);
    expect((await card(context, 'sampling')).samplingAllowed).toBe(false);
  });
});

describe("a server's question as the model is asked it", () => {
  const asking = {
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Hi?' } }],
    maxTokens: 10,
  };

  it('is refused when it lets the model use tools, sends a tool’s use or result, is too long, wants no tokens or a task', () => {
    expect(
      serverQuestion('s', { ...asking, tools: [{ name: 't', inputSchema: { type: 'object' } }] }),
    ).toEqual({
      ok: false,
      error: 'it asked to let the model use tools, which this app does not let servers do',
    });
    expect(
      serverQuestion('s', {
        ...asking,
        messages: [{ role: 'user', content: [{ type: 'tool_result', toolUseId: 'u1', content: [] }] }],
      }),
    ).toMatchObject({ ok: false, error: expect.stringContaining("a tool's use or result") });
    expect(serverQuestion('s', { ...asking, maxTokens: 0 })).toEqual({
      ok: false,
      error: 'it asked for an answer of 0 tokens, which is no answer',
    });
    expect(
      serverQuestion('s', {
        ...asking,
        systemPrompt: 'x'.repeat(QUESTION_MAX_CHARACTERS),
      }),
    ).toEqual({
      ok: false,
      error: `its question has ${QUESTION_MAX_CHARACTERS + 3} characters, more than the ${QUESTION_MAX_CHARACTERS} a server may ask`,
    });
    expect(serverQuestion('s', { ...asking, task: { ttl: 1000 } })).toMatchObject({
      ok: false,
      error: expect.stringContaining('as a task'),
    });
  });

  it('keeps its words, pictures and what it asked for that is not done', () => {
    const question = serverQuestion('s', {
      ...asking,
      systemPrompt: 'Be brief.',
      includeContext: 'thisServer',
      modelPreferences: { hints: [{ name: 'gpt' }] },
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', data: Buffer.from('png!').toString('base64'), mimeType: 'image/png' },
          ],
        },
      ],
    });
    expect(question).toMatchObject({
      ok: true,
      value: {
        systemPrompt: 'Be brief.',
        messages: [
          {
            role: 'user',
            text: 'What is this?',
            media: [{ kind: 'image', mimeType: 'image/png', bytes: 4 }],
          },
        ],
        includeContext: 'thisServer',
        modelPreferences: { hints: [{ name: 'gpt' }] },
      },
    });
  });
});
