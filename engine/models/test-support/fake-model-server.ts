import { sendJson, startLoopbackServer, type LoopbackServer } from './loopback-server';

export interface FakeOpenAiServerOptions {
  /** The one API key it accepts (Bearer); any key when absent. */
  key?: string;
  models: string[];
}

/**
 * An OpenAI-compatible server on loopback, as strict as OpenAI about keys and model names: GET /v1/models
 * lists its models, POST /v1/chat/completions answers "OK" for one of them; a wrong key is a 401 and an
 * unknown model a 404 with OpenAI's own error bodies.
 */
export function startFakeOpenAiServer(options: FakeOpenAiServerOptions): Promise<LoopbackServer> {
  return startLoopbackServer((request, response) => {
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (options.key !== undefined && bearer !== options.key) {
      return sendJson(response, 401, {
        error: {
          message:
            'Incorrect API key provided: sk-wro***. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }
    if (request.method === 'GET' && request.path === '/v1/models') {
      return sendJson(response, 200, {
        object: 'list',
        data: options.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'test' })),
      });
    }
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const model = (request.json as { model?: string } | undefined)?.model ?? '';
      if (!options.models.includes(model)) {
        return sendJson(response, 404, {
          error: {
            message: `The model \`${model}\` does not exist or you do not have access to it.`,
            type: 'invalid_request_error',
            param: null,
            code: 'model_not_found',
          },
        });
      }
      return sendJson(response, 200, {
        id: 'chatcmpl-test',
        object: 'chat.completion',
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
      });
    }
    sendJson(response, 404, { error: { message: `Unknown path ${request.path}` } });
  });
}
