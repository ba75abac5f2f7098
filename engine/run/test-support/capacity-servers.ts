import type { ServerResponse } from 'node:http';
import {
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
} from '../../models/test-support/loopback-server';
import { chatCompletion } from '../../models/test-support/chat-completion';

/**
 * Model servers on loopback with a known capacity, for the adaptive concurrency's test and benchmarks
 * (issue 34): each answers OpenAI's chat completions and Ollama's /api/chat (so LeMMing's ollama
 * provider can be measured on the same server) after `latencyMs`, with every agent checking in.
 * - `unlimited`: any number of calls at once.
 * - `slots`: `capacity` calls are served at once; the others wait their turn in a queue (a local server).
 * - `rate-limited`: beyond `capacity` calls in flight, a 429 with retry-after and x-ratelimit headers
 *   (a hosted API); every answer says how many calls remain.
 */
export type Capacity =
  { kind: 'unlimited' } | { kind: 'slots'; capacity: number } | { kind: 'rate-limited'; capacity: number };

export interface CapacityServer {
  server: LoopbackServer;
  /** Calls being served at most at once, calls refused (429), calls answered. */
  counts: { most: number; refused: number; answered: number };
  close(): Promise<void>;
}

/** What every agent answers: one message and its notes, LeMMing's response contract. */
export const CHECK_IN = JSON.stringify({
  outbox_entries: [{ kind: 'message', payload: { text: 'checked in' } }],
  tool_calls: [],
  memory_updates: [],
  notes: 'ok',
});

export async function startCapacityServer(capacity: Capacity, latencyMs: number): Promise<CapacityServer> {
  const counts = { most: 0, refused: 0, answered: 0 };
  let serving = 0;
  const queue: (() => void)[] = [];
  const limit = capacity.kind === 'unlimited' ? Number.POSITIVE_INFINITY : capacity.capacity;
  const rateHeaders = (remaining: number): Record<string, string> =>
    capacity.kind === 'rate-limited'
      ? {
          'x-ratelimit-limit-requests': String(limit),
          'x-ratelimit-remaining-requests': String(Math.max(0, remaining)),
          'x-ratelimit-reset-requests': `${latencyMs}ms`,
        }
      : {};
  const server = await startLoopbackServer(async (request, response) => {
    if (capacity.kind === 'rate-limited' && serving >= limit) {
      counts.refused += 1;
      return sendJson(
        response,
        429,
        { error: { message: 'Too many requests in flight' } },
        {
          ...rateHeaders(0),
          'retry-after': String(Math.max(1, Math.ceil(latencyMs / 1000))),
          'retry-after-ms': String(latencyMs),
        },
      );
    }
    if (capacity.kind === 'slots' && serving >= limit)
      await new Promise<void>((resolve) => queue.push(resolve));
    else serving += 1;
    counts.most = Math.max(counts.most, serving);
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const remaining = limit - serving + 1;
    const next = queue.shift();
    if (next) next();
    else serving -= 1;
    counts.answered += 1;
    answer(response, request.path, rateHeaders(remaining));
  });
  return { server, counts, close: () => server.close() };
}

function answer(response: ServerResponse, path: string, headers: Record<string, string>): void {
  if (path.startsWith('/api/chat'))
    return sendJson(
      response,
      200,
      {
        model: 'checkin',
        created_at: new Date().toISOString(),
        message: { role: 'assistant', content: CHECK_IN },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 10,
        eval_count: 5,
      },
      headers,
    );
  sendJson(response, 200, chatCompletion(CHECK_IN), headers);
}
