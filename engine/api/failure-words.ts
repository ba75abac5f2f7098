import type { Failure, FailureKind } from './failure';

/**
 * Why a turn failed, in words for someone who has never seen the engine's error kinds, chosen from an
 * `error` event's `reason` and its failure's kind and status (never from its message, which stays what
 * the engine wrote, for "Advanced" and the CLI). An event older than typed failures has its failure
 * read by `failureOfError` (older-failure.ts).
 */
export function plainFailure(reason: string, failure: Failure): string {
  if (reason === 'model_unavailable')
    return failure.kind === 'models_file_broken'
      ? "The org's list of models (models.json) cannot be read, so no model can be called: mend the file, or set the models up again in Settings, under Models and providers."
      : 'Its model is not set up: choose or add one in Settings, under Models and providers.';
  if (reason === 'engine_error') return 'Something unexpected stopped its turn.';
  if (reason === 'file_write_failed') return plainWriteFailure(failure);
  if (reason !== 'llm_call_failed') return 'Its turn could not finish.';
  return plainModelFailure(failure);
}

function plainWriteFailure({ folder, detail }: Failure): string {
  if (folder === undefined || detail === undefined) return 'What it did could not be saved in its folder.';
  return `What it did could not be saved in its folder ${folder}: ${detail}.`;
}

/** Where one status says more than its kind. */
const STATUS_WORDS: Readonly<Record<number, string>> = {
  400: 'it did not accept the request',
  403: 'the API key is not allowed to use this model',
  408: 'it gave up waiting',
  413: 'the request was too large',
};

const ANSWERED_WORDS: Partial<Record<FailureKind, string>> = {
  auth: 'the API key was refused',
  not_found: 'the model or the server address was not found',
  rate_limit: 'too many requests, or the account has no quota left',
  server: 'the server had a problem',
};

const KIND_WORDS: Partial<Record<FailureKind, string>> = {
  connection_refused:
    'The model could not be reached: nothing answered at its server address. Check the address and your connection.',
  unknown_host:
    'The model could not be reached: its server address was not found. Check the address and your connection.',
  network: 'The connection to the model’s server failed or broke off. Check your connection.',
  timeout: 'The model took too long to answer, so the call was given up.',
  cancelled: 'The call to the model was cancelled.',
  bad_response: 'The model’s server sent an answer that could not be read.',
  model_setup: 'Its model is not set up: open it in Settings, under Models and providers.',
  refused: 'The call to the model was refused before it was made, to keep the program it runs safe.',
};

function plainModelFailure(failure: Failure): string {
  const { kind, grant, status } = failure;
  const model =
    failure.model !== undefined ? `model "${failure.model}" (${failure.service ?? 'model'})` : 'model';
  if (kind === 'missing_key')
    return grant?.kind === 'environment'
      ? `The ${model} needs an API key: paste it in Settings, under Models and providers, or let this org read ${grant.name} from this computer on its trust screen.`
      : `The ${model} needs an API key: paste it in Settings, under Models and providers.`;
  if (kind === 'not_granted' && grant)
    return grant.kind === 'secret'
      ? `This org is not allowed to use the key ${grant.name}: allow it for this org in Settings → Secrets.`
      : `This org is not allowed to read ${grant.name} from this computer: allow it on the org’s trust screen.`;
  // A 200 whose body cannot be read is not an error answer: its kind alone says what happened.
  if (typeof status === 'number' && status >= 400) {
    const words = STATUS_WORDS[status] ?? ANSWERED_WORDS[kind] ?? 'it refused the call';
    return `The model could not be reached (the server answered ${status}: ${words}).`;
  }
  return KIND_WORDS[kind] ?? 'The call to the model failed.';
}
