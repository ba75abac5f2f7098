import type {
  AddModelInput,
  LocalServer,
  LocalServers,
  ModelProbe,
  ModelProbeInput,
  ModelServerInput,
  ServerModels,
  SetModelKeyInput,
  SetupProblem,
} from '../api/model-setup-schemas';
import { fail, ok, type IpcResult, type Result } from '../api/result';
import type { SecretStore } from '../secrets/secret-store';
import { accountSecretName, createProvider, type ProviderDeps } from '../models/create-provider';
import { isLoopbackUrl } from '../models/endpoint';
import { JsonApiProvider } from '../models/json-api-provider';
import { isModelCallError, ModelCallError } from '../models/model-call-error';
import { findModelEntry, readModelsFile, type ModelEntry, type ProviderConfig } from '../models/models-file';
import type { ModelProvider } from '../models/types';
import { setupProblem } from './setup-problem';
import { grantStoredSecrets, type TrustContext } from './trust';

/**
 * What a setup call may use for the open org: the secrets and variables granted to it, as its runs
 * would (a saved key the org may not use is refused, not sent); a key typed in the form is the
 * person's own for this call.
 */
export type SetupDeps = Pick<
  ProviderDeps,
  'orgPath' | 'resolveSecret' | 'env' | 'refusal' | 'programEnv' | 'dispatcher'
>;

/** A setup call gives up after this long: the person is waiting at the form. */
const SETUP_TIMEOUT_MS = 20_000;
const REPLY_PREVIEW = 120;
/** The secret name under which a key typed in the form is handed to the provider for one call. */
const TYPED_KEY = 'LEMMING_SETUP_TYPED_KEY';

/** A model server the setup form can call, and how to describe it in a problem. */
interface ModelServer {
  provider: JsonApiProvider;
  service: string;
  baseUrl: string;
  local: boolean;
}

type Server = Result<ModelServer, SetupProblem>;

/** The provider the form describes, with the typed key (else the existing model's saved key). */
async function serverOf(input: ModelServerInput, deps: SetupDeps, modelName = 'setup'): Promise<Server> {
  if (input.baseUrl && !/^https?:\/\/[^/]/i.test(input.baseUrl)) {
    return {
      ok: false,
      error: {
        field: 'baseUrl',
        kind: 'wrong_url',
        message: 'A base URL is a web address starting with http:// or https://.',
      },
    };
  }
  const existing = input.existingModel
    ? findModelEntry(await readModelsFile(deps.orgPath), input.existingModel)
    : undefined;
  const savedKey: ProviderConfig = existing
    ? {
        ...(existing.provider_config.api_key_secret
          ? { api_key_secret: existing.provider_config.api_key_secret }
          : {}),
        ...(existing.provider_config.api_key_env
          ? { api_key_env: existing.provider_config.api_key_env }
          : {}),
        ...(existing.provider_config.headers ? { headers: existing.provider_config.headers } : {}),
      }
    : {};
  const entry: ModelEntry = {
    key: input.existingModel ?? 'new model',
    provider: input.provider,
    model_name: modelName,
    provider_config: {
      ...savedKey,
      ...(input.baseUrl ? { base_url: input.baseUrl } : {}),
      ...(input.apiKey ? { api_key_secret: TYPED_KEY } : {}),
      timeout_ms: SETUP_TIMEOUT_MS,
      max_retries: 0,
    },
  };
  const providerDeps: ProviderDeps = {
    ...deps,
    resolveSecret: (name) => (name === TYPED_KEY ? input.apiKey : deps.resolveSecret(name)),
    refusal: (kind, name) => (kind === 'secret' && name === TYPED_KEY ? null : deps.refusal(kind, name)),
  };
  const provider = createProvider(entry, providerDeps);
  if (!(provider instanceof JsonApiProvider)) {
    return {
      ok: false,
      error: {
        field: 'provider',
        kind: 'other',
        message: 'This kind of model does not run on a server, so there is nothing to connect to.',
      },
    };
  }
  const { service, baseUrl } = provider.describe();
  return { ok: true, value: { provider, service, baseUrl, local: isLoopbackUrl(baseUrl) } };
}

function problemOf(error: unknown, server: ModelServer, modelName?: string): SetupProblem {
  if (!isModelCallError(error))
    return { field: null, kind: 'other', message: error instanceof Error ? error.message : String(error) };
  return setupProblem(error, {
    service: server.service,
    baseUrl: server.baseUrl,
    local: server.local,
    ...(modelName ? { modelName } : {}),
  });
}

/** The models the server offers, to pick from; or what to fix in the form to get them. */
export async function listServerModels(input: ModelServerInput, deps: SetupDeps): Promise<ServerModels> {
  const server = await serverOf(input, deps);
  if (!server.ok) return server;
  try {
    return { ok: true, value: await server.value.provider.listModels(AbortSignal.timeout(SETUP_TIMEOUT_MS)) };
  } catch (error) {
    return { ok: false, error: problemOf(error, server.value) };
  }
}

/** One tiny call to the model; says in words what it answered or what to fix. */
export async function probeModel(input: ModelProbeInput, deps: SetupDeps): Promise<ModelProbe> {
  const server = await serverOf(input, deps, input.modelName);
  if (!server.ok) return { ok: false, message: server.error.message, latencyMs: null, problem: server.error };
  try {
    const { message, latencyMs } = await askForOk(server.value.provider, input.modelName);
    return { ok: true, message, latencyMs, problem: null };
  } catch (error) {
    const problem = problemOf(error, server.value, input.modelName);
    return { ok: false, message: problem.message, latencyMs: null, problem };
  }
}

/**
 * The smallest useful call: asks the model to say OK and reports what it said and how fast. Rejects
 * with the provider's error.
 */
export async function askForOk(
  provider: ModelProvider,
  modelName: string,
): Promise<{ message: string; latencyMs: number }> {
  const started = Date.now();
  const response = await provider.complete({
    model: modelName,
    messages: [{ role: 'user', content: 'This is a connection test. Reply with the single word OK.' }],
    maxTokens: 16,
    signal: AbortSignal.timeout(SETUP_TIMEOUT_MS),
    context: { agent: 'connection-test', tick: 0, round: 1 },
  });
  const latencyMs = Date.now() - started;
  const reply = response.text.replace(/\s+/g, ' ').trim().slice(0, REPLY_PREVIEW);
  return { message: `${modelName} answered in ${latencyMs} ms${reply ? `: "${reply}"` : ''}.`, latencyMs };
}

/** The secret a model's key is kept under when its provider has no account name: GPT_4O_API_KEY for "gpt-4o". */
export function apiKeySecretName(modelKey: string): string {
  const stem = modelKey
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const named = /^[A-Z]/.test(stem) ? stem : `MODEL_${stem}`;
  return `${named.slice(0, 100)}_API_KEY`;
}

export interface AddModelDeps {
  secrets: SecretStore;
  /** The org the model is added to: its key is granted to it, since the person chose it for this org. */
  org: TrustContext;
  /** Writes the models.json entry (the text-preserving models.json editor). */
  saveModel: (
    key: string,
    patch: { provider: string; model_name: string; base_url: string | null; api_key_secret: string | null },
  ) => Promise<IpcResult<null>>;
}

/**
 * Adds a model with its API key: the key goes to the secret store (never into the org folder, never
 * back to the screen) under its provider account's name, so every model of that provider shares it;
 * models.json names that secret, and the org is granted it. If the entry cannot
 * be written, a secret this call created is removed again.
 */
export async function addModelWithKey(
  input: AddModelInput,
  deps: AddModelDeps,
): Promise<IpcResult<{ secret: string | null }>> {
  const secret = input.apiKey
    ? (accountSecretName(input.provider, input.baseUrl || undefined) ?? apiKeySecretName(input.key))
    : null;
  let created = false;
  if (secret && input.apiKey) {
    const stored = await deps.secrets.set(secret, input.apiKey);
    if (!stored.ok)
      return fail(
        'refused',
        `The API key was not saved: ${stored.error.reason}.`,
        [{ path: 'apiKey', message: stored.error.reason }],
        stored.error.fix,
      );
    created = !stored.value.existed;
  }
  const saved = await deps.saveModel(input.key, {
    provider: input.provider,
    model_name: input.modelName,
    base_url: input.baseUrl ? input.baseUrl : null,
    api_key_secret: secret,
  });
  if (!saved.ok) {
    if (created && secret) await deps.secrets.delete(secret);
    return saved;
  }
  if (secret) {
    const granted = await grantStoredSecrets(deps.org, [secret]);
    if (!granted.ok) return granted;
  }
  return ok({ secret });
}

export interface SetModelKeyDeps {
  secrets: SecretStore;
  /** The org the key is pasted in: the secret is granted to it, since the person chose it for this org. */
  org: TrustContext;
  /** Names the secret in the model's entry (the text-preserving models.json editor). */
  nameKeySecret: (key: string, secret: string) => Promise<IpcResult<null>>;
}

/**
 * Stores a key pasted on a saved model under the secret it reads its key from: the one its entry names,
 * else its provider account's, which then serves every model of that provider that names none. A model
 * that reads a variable instead gets the account secret named in its entry, since a named secret comes
 * first. The org is granted the secret.
 */
export async function setModelKey(
  input: SetModelKeyInput,
  deps: SetModelKeyDeps,
): Promise<IpcResult<{ secret: string }>> {
  const entry = findModelEntry(await readModelsFile(deps.org.orgPath), input.model);
  if (!entry) return fail('not_found', `There is no model "${input.model}" in this org.`);
  const config = entry.provider_config;
  const secret = config.api_key_secret ?? accountSecretName(entry.provider, config.base_url);
  if (!secret)
    return fail('invalid_change', `${input.model} does not call a server, so it has no API key.`, [
      { path: 'apiKey', message: 'this kind of model does not use an API key' },
    ]);
  const stored = await deps.secrets.set(secret, input.apiKey);
  if (!stored.ok)
    return fail(
      'refused',
      `The API key was not saved: ${stored.error.reason}.`,
      [{ path: 'apiKey', message: stored.error.reason }],
      stored.error.fix,
    );
  if (!config.api_key_secret && config.api_key_env) {
    const named = await deps.nameKeySecret(input.model, secret);
    if (!named.ok) return named;
  }
  const granted = await grantStoredSecrets(deps.org, [secret]);
  return granted.ok ? ok({ secret }) : granted;
}

export interface LocalCandidate {
  provider: LocalServer['provider'];
  baseUrl: string;
}

/** Where Ollama and LM Studio listen unless told otherwise. */
export const LOCAL_SERVER_CANDIDATES: readonly LocalCandidate[] = [
  { provider: 'ollama', baseUrl: 'http://127.0.0.1:11434' },
  { provider: 'lmstudio', baseUrl: 'http://127.0.0.1:1234/v1' },
];
const DETECT_TIMEOUT_MS = 1_500;

/** The model servers running on this computer, with their models; only loopback addresses are asked. */
export async function detectLocalServers(
  deps: SetupDeps,
  candidates: readonly LocalCandidate[] = LOCAL_SERVER_CANDIDATES,
): Promise<LocalServers> {
  const found = await Promise.all(
    candidates.map(async (candidate): Promise<LocalServer | null> => {
      if (!isLoopbackUrl(candidate.baseUrl)) return null;
      const server = await serverOf({ provider: candidate.provider, baseUrl: candidate.baseUrl }, deps);
      if (!server.ok) return null;
      try {
        const models = await server.value.provider.listModels(AbortSignal.timeout(DETECT_TIMEOUT_MS));
        return {
          provider: candidate.provider,
          service: server.value.service,
          baseUrl: candidate.baseUrl,
          models,
        };
      } catch (error) {
        if (!(error instanceof ModelCallError)) throw error;
        return null;
      }
    }),
  );
  return { servers: found.filter((server): server is LocalServer => server !== null) };
}
