import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
  type ReceivedRequest,
} from '../models/test-support/loopback-server';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

/** Turns against loopback servers that speak OpenAI's and Anthropic's wire formats and enforce their rules. */
const world = engineWorld();
const { orgs } = world;

type Wire = 'openai' | 'anthropic';
type Body = Record<string, any>;
interface Reply {
  text?: string;
  toolCall?: { name: string; input: Record<string, unknown> };
  stop?: string;
  refusal?: string;
}

function reply(
  wire: Wire,
  response: ServerResponse,
  { text = '', toolCall, stop, refusal }: Reply,
  index: number,
): void {
  if (wire === 'openai') {
    const tool_calls = toolCall
      ? [
          {
            id: `call_${index}`,
            type: 'function',
            function: { name: toolCall.name, arguments: JSON.stringify(toolCall.input) },
          },
        ]
      : undefined;
    sendJson(response, 200, {
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text || null,
            ...(tool_calls ? { tool_calls } : {}),
            ...(refusal ? { refusal } : {}),
          },
          finish_reason: stop ?? (toolCall ? 'tool_calls' : 'stop'),
        },
      ],
      usage: { prompt_tokens: 1000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 600 } },
    });
    return;
  }
  const content = [
    ...(text ? [{ type: 'text', text }] : []),
    ...(toolCall
      ? [{ type: 'tool_use', id: `toolu_${index}`, name: toolCall.name, input: toolCall.input }]
      : []),
  ];
  sendJson(response, 200, {
    id: `msg_${index}`,
    type: 'message',
    role: 'assistant',
    content,
    stop_reason: stop ?? (toolCall ? 'tool_use' : 'end_turn'),
    usage: {
      input_tokens: 300,
      output_tokens: 100,
      cache_read_input_tokens: 600,
      cache_creation_input_tokens: 100,
    },
  });
}

/** Anthropic's rule, which its API enforces with a 400: a history holding tool calls needs `tools`. */
function historyHasToolCalls(wire: Wire, body: Body): boolean {
  const messages = body.messages as Body[];
  if (wire === 'openai')
    return messages.some((message) => message.tool_calls?.length || message.role === 'tool');
  return messages.some(
    (message) =>
      Array.isArray(message.content) &&
      message.content.some((block: Body) => block.type === 'tool_use' || block.type === 'tool_result'),
  );
}

async function modelServer(
  wire: Wire,
  script: (body: Body, index: number) => Reply,
): Promise<LoopbackServer> {
  const server = await startLoopbackServer((request: ReceivedRequest, response, index) => {
    const body = request.json as Body;
    if (historyHasToolCalls(wire, body) && !body.tools) {
      return sendJson(response, 400, {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
        },
      });
    }
    reply(wire, response, script(body, index), index);
  });
  world.serve(server);
  return server;
}

function modelEntry(wire: Wire, url: string, extra: Record<string, unknown> = {}) {
  return wire === 'openai'
    ? {
        provider: 'openai-compatible',
        model_name: 'gpt-test',
        provider_config: { base_url: `${url}/v1`, max_retries: 0, ...extra },
      }
    : {
        provider: 'anthropic',
        model_name: 'claude-test',
        provider_config: { base_url: url, max_retries: 0, ...extra },
      };
}

async function runOneTurn(
  wire: Wire,
  server: LoopbackServer,
  options: { resume?: Record<string, unknown>; model?: Record<string, unknown> } = {},
) {
  const org = orgs.build({
    'lemming/config/models.json': { m: modelEntry(wire, server.url, options.model) },
    'lemming/config/credits.json': { a: { model: 'm', cost_per_action: 0, credits_left: 100_000 } },
    'agents/a/resume.json': resume('a', {
      model: { key: 'm' },
      permissions: { read_outboxes: ['*'], tools: ['memory_read', 'list_agents'] },
      ...options.resume,
    }),
  });
  const engine = await world.open(org, { env: { ANTHROPIC_API_KEY: 'sk-ant-rounds-test' } });
  const report = await engine.runTick();
  const rows = engine.timeline
    .page({ direction: 'asc', limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Body);
  return {
    status: report.turns[0]?.status,
    events: rows,
    bodies: server.received.map((request) => request.json as Body),
  };
}

const FINAL = JSON.stringify({ notes: 'done after tools' });

describe.each<Wire>(['openai', 'anthropic'])('a four-round tool turn (%s)', (wire) => {
  it('keeps tools on every round, forbids calls on the last, marks failed results, and completes', async () => {
    const server = await modelServer(wire, (body, index) => {
      const forbidden = wire === 'openai' ? body.tool_choice === 'none' : body.tool_choice?.type === 'none';
      if (forbidden) return { text: FINAL };
      return {
        toolCall: index === 1 ? { name: 'no_such_tool', input: {} } : { name: 'list_agents', input: {} },
      };
    });
    const { status, events, bodies } = await runOneTurn(wire, server);

    expect(events.filter((event) => event.kind === 'error')).toEqual([]);
    expect(status).toBe('completed');
    expect(bodies).toHaveLength(4);
    for (const body of bodies) expect(body.tools?.length).toBeGreaterThan(0);
    expect(bodies.map((body) => body.tool_choice)).toEqual([
      undefined,
      undefined,
      undefined,
      wire === 'openai' ? 'none' : { type: 'none' },
    ]);
    expect(events.find((event) => event.kind === 'notes')?.text).toBe('done after tools');
    if (wire === 'anthropic') {
      const results = (bodies[3]!.messages as Body[])
        .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
        .filter((block: Body) => block.type === 'tool_result');
      expect(results.map((block: Body) => block.is_error ?? false)).toEqual([false, true, false]);
    } else {
      const results = (bodies[3]!.messages as Body[]).filter((message) => message.role === 'tool');
      expect(results.map((message) => JSON.parse(message.content as string).success)).toEqual([
        true,
        false,
        true,
      ]);
    }
  });

  it('sends no temperature unless the resume or models.json sets one', async () => {
    const plain = await modelServer(wire, () => ({ text: FINAL }));
    await runOneTurn(wire, plain);
    expect(plain.received[0]!.json).not.toHaveProperty('temperature');

    const fromResume = await modelServer(wire, () => ({ text: FINAL }));
    await runOneTurn(wire, fromResume, { resume: { model: { key: 'm', temperature: 0.5 } } });
    expect(fromResume.received[0]!.json).toMatchObject({ temperature: 0.5 });

    const fromModel = await modelServer(wire, () => ({ text: FINAL }));
    await runOneTurn(wire, fromModel, { model: { temperature: 0.3 } });
    expect(fromModel.received[0]!.json).toMatchObject({ temperature: 0.3 });
  });

  it('records usage on the model_call and charges cached and cache-written tokens at their prices', async () => {
    const server = await modelServer(wire, () => ({ text: FINAL }));
    const prices = {
      input_per_million: 10_000,
      cached_input_per_million: 1_000,
      cache_write_per_million: 20_000,
      output_per_million: 50_000,
    };
    const { events } = await runOneTurn(wire, server, { model: { prices } });
    const call = events.find((event) => event.kind === 'model_call')!;
    if (wire === 'openai') {
      // 400 fresh × 10000 + 600 cached × 1000 + 100 out × 50000, per million
      expect(call.usage).toEqual({ inputTokens: 1000, outputTokens: 100, cachedInputTokens: 600 });
      expect(call.cost).toBeCloseTo(4 + 0.6 + 5, 6);
    } else {
      // 300 fresh × 10000 + 600 cached × 1000 + 100 written × 20000 + 100 out × 50000
      expect(call.usage).toEqual({
        inputTokens: 1000,
        outputTokens: 100,
        cachedInputTokens: 600,
        cacheWriteTokens: 100,
      });
      expect(call.cost).toBeCloseTo(3 + 0.6 + 2 + 5, 6);
    }
  });
});

describe('stop reasons', () => {
  it('a refusal is a model_refused event with its text, and nothing of the answer is acted on', async () => {
    for (const wire of ['openai', 'anthropic'] as const) {
      const text = 'I can’t help with that request.';
      const server = await modelServer(wire, () =>
        wire === 'openai' ? { refusal: text } : { text, stop: 'refusal' },
      );
      const { status, events } = await runOneTurn(wire, server);
      expect(events.filter((event) => event.kind === 'model_refused')).toEqual([
        expect.objectContaining({ kind: 'model_refused', round: 1, model: 'm', text, agent: 'a' }),
      ]);
      expect(status).toBe('completed');
      expect(
        events.filter((event) => event.kind === 'warning' && String(event.code).startsWith('contract_')),
      ).toEqual([]);
    }
  });

  it('an answer cut at max_tokens is a warning, and Anthropic is asked once to go on from where it stopped', async () => {
    const server = await modelServer('anthropic', (_body, index) =>
      index === 0 ? { text: '{"notes": "first half ', stop: 'max_tokens' } : { text: ' second half"}' },
    );
    const { status, events, bodies } = await runOneTurn('anthropic', server);
    expect(bodies).toHaveLength(2);
    expect((bodies[1]!.messages as Body[]).at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '{"notes": "first half' }],
    });
    expect(events.filter((event) => event.kind === 'warning').map((event) => event.code)).toEqual([
      'model_output_truncated',
    ]);
    expect(events.find((event) => event.kind === 'notes')?.text).toBe('first half second half');
    expect(events.filter((event) => event.kind === 'model_call')).toHaveLength(2);
    expect(status).toBe('completed');
  });

  it('OpenAI cannot continue an answer: length is a warning and one call', async () => {
    const server = await modelServer('openai', () => ({ text: '{"notes": "cut', stop: 'length' }));
    const { events, bodies } = await runOneTurn('openai', server);
    expect(bodies).toHaveLength(1);
    expect(events.filter((event) => event.kind === 'warning').map((event) => event.code)).toContain(
      'model_output_truncated',
    );
  });

  it('a content filter stop is a warning and what was written is used', async () => {
    const server = await modelServer('openai', () => ({ text: FINAL, stop: 'content_filter' }));
    const { status, events } = await runOneTurn('openai', server);
    expect(events.filter((event) => event.kind === 'warning').map((event) => event.code)).toEqual([
      'model_content_filtered',
    ]);
    expect(events.find((event) => event.kind === 'notes')?.text).toBe('done after tools');
    expect(status).toBe('completed');
  });

  it("Anthropic's pause_turn is sent back and the turn goes on, without a warning", async () => {
    const server = await modelServer('anthropic', (_body, index) =>
      index === 0 ? { text: '{"notes": "paused', stop: 'pause_turn' } : { text: ' then resumed"}' },
    );
    const { events, bodies } = await runOneTurn('anthropic', server);
    expect(bodies).toHaveLength(2);
    expect(events.filter((event) => event.kind === 'warning')).toEqual([]);
    expect(events.find((event) => event.kind === 'notes')?.text).toBe('paused then resumed');
  });
});
