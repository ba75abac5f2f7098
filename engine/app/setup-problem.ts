import type { SetupProblem } from '../api/model-setup-schemas';
import type { ModelCallError } from '../models/model-call-error';

export interface ProblemContext {
  /** The provider as people know it: "OpenAI", "Ollama". */
  service: string;
  baseUrl: string;
  /** Runs on this computer: "is it running?" is the likely question. */
  local: boolean;
  /** While testing one model (not while listing the server's models). */
  modelName?: string;
}

/** A failed call in words a person can act on, at the form field to change. */
export function setupProblem(error: ModelCallError, context: ProblemContext): SetupProblem {
  const { modelName } = context;
  const service = atSentenceStart(context.service);
  const where = hostOf(context.baseUrl);
  switch (error.kind) {
    case 'config':
      if (error.notGranted)
        return {
          field: 'apiKey',
          kind: 'bad_key',
          message: `This org is not allowed to use the saved key ${error.notGranted.name}: allow it in Settings → Secrets, or paste the key here.`,
        };
      return /key/i.test(error.message)
        ? {
            field: 'apiKey',
            kind: 'bad_key',
            message: `${service} needs an API key. Paste the key from your ${context.service} account.`,
          }
        : { field: 'baseUrl', kind: 'wrong_url', message: `Give the address of the server (the base URL).` };
    case 'network':
      if (/ECONNREFUSED/.test(error.message)) {
        return {
          field: 'baseUrl',
          kind: 'server_down',
          message: context.local
            ? `Nothing is answering at ${where}. Is ${named(context.service)} running? Start it, then try again.`
            : `Nothing is answering at ${where}. Check the address.`,
        };
      }
      if (/ENOTFOUND|EAI_AGAIN/.test(error.message)) {
        return {
          field: 'baseUrl',
          kind: 'wrong_url',
          message: `The address ${where} was not found. Check the base URL and your internet connection.`,
        };
      }
      return {
        field: 'baseUrl',
        kind: 'server_down',
        message: `Could not reach ${where}. Check the address and your connection.`,
      };
    case 'timeout':
      return {
        field: 'baseUrl',
        kind: 'timeout',
        message: context.local
          ? `${service} at ${where} did not answer in time. It may still be loading the model; try again in a minute.`
          : `${service} at ${where} did not answer in time. Check the address and try again.`,
      };
    case 'bad_response':
      return {
        field: 'baseUrl',
        kind: 'not_a_server',
        message: `Something answered at ${where}, but not the way ${named(context.service)} does. Check the base URL and the provider.`,
      };
    case 'http':
      return httpProblem(error, context, where, modelName);
    default:
      return { field: null, kind: 'other', message: error.message };
  }
}

function httpProblem(
  error: ModelCallError,
  context: ProblemContext,
  where: string,
  modelName: string | undefined,
): SetupProblem {
  const service = atSentenceStart(context.service);
  const status = error.status ?? 0;
  if (status === 401 || status === 403) {
    return {
      field: 'apiKey',
      kind: 'bad_key',
      message: `${service} did not accept this API key. Check that you copied all of it and that it is still active.`,
    };
  }
  const mentionsModel = /model/i.test(error.message);
  if (modelName !== undefined && (status === 404 || status === 400) && mentionsModel) {
    return {
      field: 'modelName',
      kind: 'model_not_found',
      message: `${service} has no model called “${modelName}”. Pick one from the list of its models.`,
    };
  }
  if (status === 404 || status === 405) {
    return {
      field: 'baseUrl',
      kind: 'wrong_url',
      message: `${where} answered “not found”: this is probably not the right address for ${named(context.service)}.${/^(Anthropic|Ollama)$/.test(context.service) || /\/v1\/?$/.test(context.baseUrl) ? '' : ' OpenAI-style addresses usually end in /v1.'}`,
    };
  }
  if (status === 402 || status === 429) {
    return {
      field: null,
      kind: 'other',
      message: `${service} refused for now: no credit left on the account, or too many requests. (${detailOf(error.message)})`,
    };
  }
  return {
    field: null,
    kind: 'other',
    message: `${service} answered with an error: ${detailOf(error.message)}`,
  };
}

/** The provider's own explanation, without our "X returned HTTP 400:" prefix. */
function detailOf(message: string): string {
  return message.replace(/^.*? returned HTTP \d+(?: after \d+ attempts)?: /, '');
}

/** "the llama.cpp server", but "Ollama". */
function named(service: string): string {
  return /server$/i.test(service) ? `the ${service}` : service;
}

function atSentenceStart(service: string): string {
  const phrase = named(service);
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
