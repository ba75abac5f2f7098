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
    case 'not_granted':
      return {
        field: 'apiKey',
        kind: 'bad_key',
        message: `This org is not allowed to use the saved key ${error.notGranted?.name ?? ''}: allow it in Settings → Secrets, or paste the key here.`,
      };
    case 'missing_key':
      return {
        field: 'apiKey',
        kind: 'bad_key',
        message: `${service} needs an API key. Paste the key from your ${context.service} account.`,
      };
    case 'model_setup':
      return {
        field: 'baseUrl',
        kind: 'wrong_url',
        message: `Give the address of the server (the base URL).`,
      };
    case 'connection_refused':
      return {
        field: 'baseUrl',
        kind: 'server_down',
        message: context.local
          ? `Nothing is answering at ${where}. Is ${named(context.service)} running? Start it, then try again.`
          : `Nothing is answering at ${where}. Check the address.`,
      };
    case 'unknown_host':
      return {
        field: 'baseUrl',
        kind: 'wrong_url',
        message: `The address ${where} was not found. Check the base URL and your internet connection.`,
      };
    case 'network':
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
    case 'auth':
    case 'not_found':
    case 'rate_limit':
    case 'server':
    case 'bad_request':
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
  if (error.kind === 'auth') {
    return {
      field: 'apiKey',
      kind: 'bad_key',
      message: `${service} did not accept this API key. Check that you copied all of it and that it is still active.`,
    };
  }
  const mentionsModel = /model/i.test(error.message);
  if (modelName !== undefined && (error.kind === 'not_found' || error.status === 400) && mentionsModel) {
    return {
      field: 'modelName',
      kind: 'model_not_found',
      message: `${service} has no model called “${modelName}”. Pick one from the list of its models.`,
    };
  }
  if (error.kind === 'not_found') {
    return {
      field: 'baseUrl',
      kind: 'wrong_url',
      message: `${where} answered “not found”: this is probably not the right address for ${named(context.service)}.${/^(Anthropic|Ollama)$/.test(context.service) || /\/v1\/?$/.test(context.baseUrl) ? '' : ' OpenAI-style addresses usually end in /v1.'}`,
    };
  }
  if (error.kind === 'rate_limit') {
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
