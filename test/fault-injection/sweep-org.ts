import type { ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  startLoopbackServer,
  sendJson,
  type LoopbackServer,
} from '../../engine/models/test-support/loopback-server';

/** The agents of the sweep's org; each writes a file, sends a message and appends to its memory every tick. */
export const SWEEP_AGENTS = ['alpha', 'beta', 'gamma'] as const;

type Body = { messages?: { role: string; content?: unknown }[]; stream?: boolean };

/** What the model answers `agent` at `tick`: the same every time, so a faulted run is compared by content. */
export function expectedTurn(agent: string, tick: number) {
  return {
    file: { path: `notes/tick-${tick}.md`, content: `${agent} was here at tick ${tick}\n` },
    message: `${agent} reports tick ${tick}`,
    memoryItem: `${agent}@${tick}`,
  };
}

function promptText(body: Body): string {
  return (body.messages ?? [])
    .map((message) =>
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
    )
    .join('\n');
}

/** An answer on the OpenAI wire: streamed as server-sent events when the request asks for a stream. */
function answer(
  response: ServerResponse,
  body: Body,
  message: { content: string | null; tool_calls?: unknown[] },
  finish: string,
): void {
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  if (!body.stream) {
    sendJson(response, 200, {
      id: 'chatcmpl-sweep',
      object: 'chat.completion',
      model: 'sweep-model',
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
      usage,
    });
    return;
  }
  const chunk = (delta: unknown, finishReason: string | null, extra: object = {}) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-sweep',
      object: 'chat.completion.chunk',
      model: 'sweep-model',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    })}\n\n`;
  const toolDeltas = (message.tool_calls ?? []).map((call, index) => ({ index, ...(call as object) }));
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.end(
    chunk(
      {
        role: 'assistant',
        content: message.content ?? '',
        ...(toolDeltas.length ? { tool_calls: toolDeltas } : {}),
      },
      null,
    ) +
      chunk({}, finish) +
      `data: ${JSON.stringify({ id: 'chatcmpl-sweep', object: 'chat.completion.chunk', choices: [], usage })}\n\n` +
      'data: [DONE]\n\n',
  );
}

/**
 * A model on loopback that speaks OpenAI's chat-completions wire: the first round of a turn calls
 * `file_write`, the second (after the tool's result) answers with a message and a memory append.
 */
export function startSweepModelServer(): Promise<LoopbackServer> {
  return startLoopbackServer((request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions') {
      return sendJson(response, 404, { error: { message: `Unknown path ${request.path}` } });
    }
    const body = request.json as Body;
    const prompt = promptText(body);
    const agent = /You are: (\w+)/.exec(prompt)?.[1] ?? 'unknown';
    const tick = Number(/Current tick: (\d+)/.exec(prompt)?.[1] ?? 0);
    const turn = expectedTurn(agent, tick);
    if (!(body.messages ?? []).some((message) => message.role === 'tool')) {
      return answer(
        response,
        body,
        {
          content: null,
          tool_calls: [
            {
              id: `call_${agent}_${tick}`,
              type: 'function',
              function: { name: 'file_write', arguments: JSON.stringify(turn.file) },
            },
          ],
        },
        'tool_calls',
      );
    }
    answer(
      response,
      body,
      {
        content: JSON.stringify({
          outbox_entries: [{ kind: 'message', payload: { text: turn.message } }],
          memory_updates: [{ key: 'log', op: 'append', value: turn.memoryItem }],
          notes: `tick ${tick} done`,
        }),
      },
      'stop',
    );
  });
}

/** Writes the sweep's org into `folder` (which must not exist yet), its model at `modelUrl`. */
export function writeSweepOrg(folder: string, modelUrl: string): void {
  const files: Record<string, unknown> = {
    'lemming/config/org_config.json': { base_turn_seconds: 1, max_turns: null },
    'lemming/config/models.json': {
      sweep: {
        provider: 'openai-compatible',
        model_name: 'sweep-model',
        provider_config: { base_url: `${modelUrl}/v1`, max_retries: 0 },
      },
    },
    'lemming/config/credits.json': Object.fromEntries(
      SWEEP_AGENTS.map((agent) => [agent, { model: 'sweep', cost_per_action: 0, credits_left: 1000 }]),
    ),
  };
  for (const agent of SWEEP_AGENTS) {
    files[`agents/${agent}/resume.json`] = {
      name: agent,
      title: `${agent} title`,
      short_description: `${agent} agent`,
      instructions: `You are ${agent}.`,
      model: { key: 'sweep' },
      permissions: { read_outboxes: ['*'], tools: ['file_write'] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    };
  }
  for (const [path, content] of Object.entries(files)) {
    const file = join(folder, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  }
}
