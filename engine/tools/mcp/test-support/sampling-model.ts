import {
  sendJson,
  startLoopbackServer,
  type LoopbackServer,
} from '../../../models/test-support/loopback-server';

/** The system prompts the servers ask with: how the model server tells a server's question from the agent's turn. */
const SERVER_PROMPTS = ['You answer in one word.', 'You are a helpful test server.'];

export type Body = { messages: { role: string; content: unknown }[]; max_tokens?: number };

/**
 * An OpenAI-compatible model on loopback: a server's question is answered "Paris" (20 tokens in, 2 out),
 * or with OpenAI's 500 when `questionsFail`; the agent calls `tool` with `args` in its first round, then finishes.
 */
export async function samplingModelServer(
  tool: string,
  args: Record<string, unknown>,
  { questionsFail = false } = {},
): Promise<LoopbackServer> {
  const server = await startLoopbackServer((request, response, index) => {
    const body = request.json as Body;
    const question = SERVER_PROMPTS.includes(String(body.messages[0]?.content));
    if (question && questionsFail)
      return sendJson(response, 500, {
        error: { message: 'The server had an error while processing your request.', type: 'server_error' },
      });
    const called = body.messages.some((message) => message.role === 'tool');
    const message = question
      ? { role: 'assistant', content: 'Paris' }
      : called
        ? { role: 'assistant', content: JSON.stringify({ notes: 'done' }) }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: tool, arguments: JSON.stringify(args) } },
            ],
          };
    sendJson(response, 200, {
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      model: 'v',
      choices: [{ index: 0, message, finish_reason: question || called ? 'stop' : 'tool_calls' }],
      usage: question
        ? { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 }
        : { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  return server;
}

/** The servers' questions the model was asked (not the agent's own calls). */
export const questionsTo = (model: LoopbackServer) =>
  model.received
    .map((request) => request.json as Body)
    .filter((body) => SERVER_PROMPTS.includes(String(body.messages[0]?.content)));
