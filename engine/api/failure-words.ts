/** The engine's message for a models.json that is not a models object at all (org-engine's loadModels). */
const MODEL_LIST_BROKEN = /models\.json(:\d+:\d+)? is not valid \(/;

/**
 * Why a turn failed, in words for someone who has never seen the engine's error kinds, made from an
 * `error` event as it is stored (its `reason` and `message`). The event itself is never rewritten:
 * the technical text stays what the engine wrote, for "Advanced" and the CLI.
 */
export function plainFailure(reason: string, message: string): string {
  if (reason === 'model_unavailable')
    return MODEL_LIST_BROKEN.test(message)
      ? "The org's list of models (models.json) cannot be read, so no model can be called: mend the file, or set the models up again in Settings, under Models and providers."
      : 'Its model is not set up: choose or add one in Settings, under Models and providers.';
  if (reason === 'engine_error') return 'Something unexpected stopped its turn.';
  if (reason === 'file_write_failed') return plainWriteFailure(message);
  if (reason !== 'llm_call_failed') return 'Its turn could not finish.';
  return plainModelFailure(message);
}

/** The engine's message for a committed turn's file that could not be written (pending-files.ts). */
const WRITE_FAILED = /^could not write to (.+)\/[^/]+: (.+)$/;

function plainWriteFailure(message: string): string {
  const match = WRITE_FAILED.exec(message);
  if (!match) return 'What it did could not be saved in its folder.';
  return `What it did could not be saved in its folder ${match[1]}: ${match[2]}.`;
}

const STATUS_WORDS: Readonly<Record<number, string>> = {
  400: 'it did not accept the request',
  401: 'the API key was refused',
  403: 'the API key is not allowed to use this model',
  404: 'the model or the server address was not found',
  408: 'it gave up waiting',
  413: 'the request was too large',
  429: 'too many requests, or the account has no quota left',
};

function plainModelFailure(message: string): string {
  if (/needs an API key|API key from the environment variable|uses the secret/.test(message)) {
    const model = /^model "[^"]+" \([^)]+\)/.exec(message)?.[0] ?? 'model';
    // A provider's own variable (OPENAI_API_KEY) may be set on this computer and not granted to the org.
    const usual = /this org may not read the environment variable (\w+)/.exec(message)?.[1];
    return usual === undefined
      ? `The ${model} needs an API key: paste it in Settings, under Models and providers.`
      : `The ${model} needs an API key: paste it in Settings, under Models and providers, or let this org read ${usual} from this computer on its trust screen.`;
  }
  const secret = /this org may not use the secret (\w+)/.exec(message)?.[1];
  if (secret !== undefined)
    return `This org is not allowed to use the key ${secret}: allow it for this org in Settings → Secrets.`;
  const variable = /this org may not read the environment variable (\w+)/.exec(message)?.[1];
  if (variable !== undefined)
    return `This org is not allowed to read ${variable} from this computer: allow it on the org’s trust screen.`;
  const status = /returned HTTP (\d{3})/.exec(message)?.[1];
  if (status !== undefined) {
    const code = Number(status);
    const words = STATUS_WORDS[code] ?? (code >= 500 ? 'the server had a problem' : 'it refused the call');
    return `The model could not be reached (the server answered ${code}: ${words}).`;
  }
  if (/^cannot reach /.test(message))
    return 'The model could not be reached: nothing answered at its server address. Check the address and your connection.';
  if (/timed out|did not answer within|stopped writing|sent nothing for/.test(message))
    return 'The model took too long to answer, so the call was given up.';
  if (/was cancelled/.test(message)) return 'The call to the model was cancelled.';
  if (/not JSON|not a chat answer/.test(message))
    return 'The model’s server sent an answer that could not be read.';
  return 'The call to the model failed.';
}
