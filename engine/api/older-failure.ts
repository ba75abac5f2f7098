import { Failure, kindOfHttpStatus } from './failure';

/** An `error` event as stored: events written before failures were typed have no `failure`. */
export interface StoredError {
  reason: string;
  message: string;
  failure?: unknown;
}

/**
 * The failure an `error` event records. An event written before failures were typed has only its
 * message: its failure is read from the engine's own wording of that time, so it is shown as it was.
 * Nothing written since is read this way.
 */
export function failureOfError(error: StoredError): Failure {
  const typed = Failure.safeParse(error.failure);
  if (typed.success) return typed.data;
  return failureOfOlderMessage(error.reason, error.message);
}

const MODEL_LIST_BROKEN = /models\.json(:\d+:\d+)? is not valid \(/;
const WRITE_FAILED = /^could not write to (.+)\/[^/]+: (.+)$/;
const MODEL_LABEL = /^model "([^"]+)" \(([^)]+)\)/;
const SECRET_REFUSED = /this org may not use the secret (\w+)/;
const VARIABLE_REFUSED = /this org may not read the environment variable (\w+)/;

function failureOfOlderMessage(reason: string, message: string): Failure {
  if (reason === 'model_unavailable')
    return { kind: MODEL_LIST_BROKEN.test(message) ? 'models_file_broken' : 'model_setup' };
  if (reason === 'file_write_failed') {
    const unwritten = WRITE_FAILED.exec(message);
    return unwritten
      ? { kind: 'unwritable', folder: unwritten[1], detail: unwritten[2] }
      : { kind: 'unwritable' };
  }
  if (reason !== 'llm_call_failed') return { kind: 'unexpected' };
  const label = MODEL_LABEL.exec(message);
  const model = label ? { model: label[1], service: label[2] } : {};
  const variable = VARIABLE_REFUSED.exec(message)?.[1];
  if (/needs an API key|API key from the environment variable|uses the secret/.test(message))
    return {
      kind: 'missing_key',
      ...model,
      ...(variable ? { grant: { kind: 'environment', name: variable } } : {}),
    };
  const secret = SECRET_REFUSED.exec(message)?.[1];
  if (secret !== undefined) return { kind: 'not_granted', ...model, grant: { kind: 'secret', name: secret } };
  if (variable !== undefined)
    return { kind: 'not_granted', ...model, grant: { kind: 'environment', name: variable } };
  if (/needs the address of its server/.test(message)) return { kind: 'model_setup' };
  const status = /returned HTTP (\d{3})/.exec(message)?.[1];
  if (status !== undefined) return { kind: kindOfHttpStatus(Number(status)), status: Number(status) };
  if (/^cannot reach /.test(message)) return { kind: 'connection_refused' };
  if (/timed out|did not answer within|stopped writing|sent nothing for/.test(message))
    return { kind: 'timeout' };
  if (/was cancelled/.test(message)) return { kind: 'cancelled' };
  if (/not JSON|not a chat answer/.test(message)) return { kind: 'bad_response' };
  return { kind: 'unexpected' };
}
