import { describe, expect, it } from 'vitest';
import { plainFailure } from '../../engine/api/failure-words';
import { failureOfError } from '../../engine/api/older-failure';

/** How an `error` event written before failures were typed (a reason and a message only) is worded. */
const plainOlderFailure = (reason: string, message: string) =>
  plainFailure(reason, failureOfError({ reason, message }));

describe('an error event older than typed failures', () => {
  it('says what stopped a model call, without the engine’s error kinds or config fields', () => {
    expect(
      plainOlderFailure(
        'llm_call_failed',
        'model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers (from the command line: store it as a secret and name it in provider_config.api_key_secret, or set the OPENAI_API_KEY environment variable)',
      ),
    ).toBe('The model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers.');
    expect(plainOlderFailure('llm_call_failed', 'OpenAI returned HTTP 401: Incorrect API key provided')).toBe(
      'The model could not be reached (the server answered 401: the API key was refused).',
    );
    expect(
      plainOlderFailure('llm_call_failed', 'OpenAI returned HTTP 503 after 3 attempts: overloaded'),
    ).toBe('The model could not be reached (the server answered 503: the server had a problem).');
    expect(
      plainOlderFailure(
        'llm_call_failed',
        'cannot reach Ollama at http://127.0.0.1:11434: connect refused (ECONNREFUSED)',
      ),
    ).toBe(
      'The model could not be reached: nothing answered at its server address. Check the address and your connection.',
    );
    expect(plainOlderFailure('llm_call_failed', 'OpenAI did not answer within 60000 ms (timeout_ms)')).toBe(
      'The model took too long to answer, so the call was given up.',
    );
    expect(
      plainOlderFailure(
        'llm_call_failed',
        'model "gpt" (OpenAI): this org may not use the secret OPENAI_KEY; grant it in Settings → Secrets (from the command line: lemming secret grant OPENAI_KEY --org /orgs/shop)',
      ),
    ).toBe('This org is not allowed to use the key OPENAI_KEY: allow it for this org in Settings → Secrets.');
    expect(
      plainOlderFailure(
        'llm_call_failed',
        'model "gpt" (OpenAI-compatible server): this org may not read the environment variable TEAM_KEY; allow it on the org\'s trust screen (from the command line: lemming trust /orgs/shop --yes --env TEAM_KEY)',
      ),
    ).toBe(
      'This org is not allowed to read TEAM_KEY from this computer: allow it on the org’s trust screen.',
    );
    // OPENAI_API_KEY may be set on this computer: the person is told the org may not read it yet.
    expect(
      plainOlderFailure(
        'llm_call_failed',
        'model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers (from the command line: store it as a secret and name it in provider_config.api_key_secret, or set the OPENAI_API_KEY environment variable); this org may not read the environment variable OPENAI_API_KEY; allow it on the org\'s trust screen (from the command line: lemming trust /orgs/shop --yes --env OPENAI_API_KEY)',
      ),
    ).toBe(
      'The model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers, or let this org read OPENAI_API_KEY from this computer on its trust screen.',
    );
    expect(plainOlderFailure('llm_call_failed', 'something new')).toBe('The call to the model failed.');
  });

  it('names the other ways a turn fails in words, whatever their message says', () => {
    expect(
      plainOlderFailure('model_unavailable', 'The model "x" is not in lemming/config/models.json.'),
    ).toBe('Its model is not set up: choose or add one in Settings, under Models and providers.');
    expect(
      plainOlderFailure(
        'model_unavailable',
        'lemming/config/models.json:1:14 is not valid (invalid JSON: Unexpected end of JSON input), so no model can be called until it is fixed.',
      ),
    ).toBe(
      "The org's list of models (models.json) cannot be read, so no model can be called: mend the file, or set the models up again in Settings, under Models and providers.",
    );
    expect(plainOlderFailure('engine_error', 'The turn stopped on an unexpected error: boom')).toBe(
      'Something unexpected stopped its turn.',
    );
    expect(
      plainOlderFailure(
        'file_write_failed',
        'could not write to agents/beta/outbox/00000003_9303b0f4a02a499b8e51bd7f01aa56aa.json: permission denied',
      ),
    ).toBe('What it did could not be saved in its folder agents/beta/outbox: permission denied.');
    expect(
      plainOlderFailure(
        'file_write_failed',
        'could not write to agents/beta/logs/activity.log: a file is in the way of a folder',
      ),
    ).toBe(
      'What it did could not be saved in its folder agents/beta/logs: a file is in the way of a folder.',
    );
    expect(plainOlderFailure('some_future_reason', 'whatever')).toBe('Its turn could not finish.');
  });
});
