import type { Result } from '../api/result';
import { resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import { AnthropicProvider } from './anthropic-provider';
import { lookUpApiKey, type KeyRule } from './api-key';
import { cliEnvironment, CliProvider } from './cli-provider';
import { isLoopbackUrl, type HttpEndpoint } from './endpoint';
import { ModelCallError } from './model-call-error';
import type { ModelEntry, ProviderConfig } from './models-file';
import { OllamaProvider } from './ollama-provider';
import { OpenAiCompatibleProvider, type MaxTokensField } from './openai-provider';
import { DEFAULT_RETRY_TIMING, type RetryTiming } from './retry-timing';
import { ScriptedProvider } from './scripted-provider';
import type { ModelProvider } from './types';
import type { GrantRefusal } from '../api/grant-refusal';

export interface ProviderDeps {
  /** The org folder: relative paths in provider_config (script, cwd) resolve against it. */
  orgPath: string;
  /** A stored secret's value, when this org may use it (`api_key_secret`). */
  resolveSecret: (name: string) => string | undefined;
  /**
   * The environment variables this org may read (`api_key_env`, a provider's own key and base URL
   * variables): only those the person granted it.
   */
  env: Record<string, string | undefined>;
  /** Which secret or variable the org names is refused to it (see GrantRefusal). */
  refusal: GrantRefusal;
  /** What a `cli` model's program starts from: only PATH, HOME and the like are passed on (cliEnvironment). */
  programEnv: Record<string, string | undefined>;
  dispatcher?: Dispatcher;
  /** Tests make backoff instant and observable through this. */
  retryTiming?: Partial<RetryTiming>;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = 3;
/** LeMMing's cli timeout. */
export const DEFAULT_CLI_TIMEOUT_MS = 60_000;

export interface HttpDefaults {
  service: string;
  baseUrl?: string;
  /** An environment variable that overrides the default base URL, as the provider's own tools do. */
  baseUrlEnv?: string;
  keyEnv?: string;
  keyRequired: boolean;
}

const OPENAI_FAMILY: Record<string, HttpDefaults & { maxTokensField: MaxTokensField }> = {
  openai: {
    service: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    baseUrlEnv: 'OPENAI_BASE_URL',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: true,
    maxTokensField: 'max_completion_tokens',
  },
  openrouter: {
    service: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    keyRequired: true,
    maxTokensField: 'max_tokens',
  },
  'openai-compatible': {
    service: 'OpenAI-compatible server',
    keyRequired: false,
    maxTokensField: 'max_tokens',
  },
  lmstudio: {
    service: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    keyRequired: false,
    maxTokensField: 'max_tokens',
  },
  vllm: {
    service: 'vLLM',
    baseUrl: 'http://localhost:8000/v1',
    keyRequired: false,
    maxTokensField: 'max_tokens',
  },
  llamacpp: {
    service: 'llama.cpp server',
    baseUrl: 'http://localhost:8080/v1',
    keyRequired: false,
    maxTokensField: 'max_tokens',
  },
};

const ANTHROPIC: HttpDefaults = {
  service: 'Anthropic',
  baseUrl: 'https://api.anthropic.com',
  keyEnv: 'ANTHROPIC_API_KEY',
  keyRequired: true,
};
// LeMMing documents OLLAMA_BASE_URL in .env.example but never read it.
const OLLAMA: HttpDefaults = {
  service: 'Ollama',
  baseUrl: 'http://localhost:11434',
  baseUrlEnv: 'OLLAMA_BASE_URL',
  keyRequired: false,
};

/** Where an HTTP provider sends its calls and which variables it reads, by models.json's `provider`; null for `cli`, `scripted` and unknown providers, which contact no server. */
export function httpProviderDefaults(provider: string): HttpDefaults | null {
  if (Object.hasOwn(OPENAI_FAMILY, provider)) return OPENAI_FAMILY[provider] ?? null;
  if (provider === 'anthropic') return ANTHROPIC;
  if (provider === 'ollama') return OLLAMA;
  return null;
}

/** An address without the slashes that make no difference: https://api.openai.com/v1/ is https://api.openai.com/v1. */
function sameAddress(a: string, b: string | undefined): boolean {
  return b !== undefined && a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();
}

/**
 * The stored secret that holds the key of a provider account, which every model of that account uses
 * when its entry names no key of its own (docs/ARCHITECTURE.md, "Keys per provider"): at a provider's
 * own address, whichever provider field names it, its usual variable name (OPENAI_API_KEY,
 * ANTHROPIC_API_KEY, OPENROUTER_API_KEY), else
 * a name made from the server's host (API_TOGETHER_XYZ_API_KEY, LOCALHOST_1234_API_KEY). Null for a
 * model with no server (`cli`, `scripted`, an unknown provider, a compatible server without an address).
 */
export function accountSecretName(provider: string, baseUrl: string | undefined): string | null {
  const defaults = httpProviderDefaults(provider);
  if (!defaults) return null;
  const address = baseUrl ?? defaults.baseUrl;
  if (address === undefined) return null;
  const known = [...Object.values(OPENAI_FAMILY), ANTHROPIC].find(
    (provider) => provider.keyEnv && sameAddress(address, provider.baseUrl),
  );
  if (known?.keyEnv) return known.keyEnv;
  let host: string;
  try {
    host = new URL(address).host;
  } catch {
    return null;
  }
  const stem = host
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (stem === '') return null;
  const named = /^[A-Z]/.test(stem) ? stem : `HOST_${stem}`;
  return `${named.slice(0, 100)}_API_KEY`;
}

/**
 * The provider for one models.json entry. Never throws: a configuration that cannot work yields a
 * provider whose every call fails with a `config` error that says what to fix.
 */
export function createProvider(entry: ModelEntry, deps: ProviderDeps): ModelProvider {
  const family = Object.hasOwn(OPENAI_FAMILY, entry.provider) ? OPENAI_FAMILY[entry.provider] : undefined;
  if (family) {
    const endpoint = httpEndpoint(entry, family, deps);
    return endpoint.ok
      ? new OpenAiCompatibleProvider(endpoint.value, family.maxTokensField)
      : failingProvider(entry.provider, endpoint.error);
  }
  if (entry.provider === 'anthropic') {
    const endpoint = httpEndpoint(entry, ANTHROPIC, deps);
    return endpoint.ok
      ? new AnthropicProvider(endpoint.value)
      : failingProvider(entry.provider, endpoint.error);
  }
  if (entry.provider === 'ollama') {
    const endpoint = httpEndpoint(entry, OLLAMA, deps);
    return endpoint.ok
      ? new OllamaProvider(endpoint.value, {
          ...(entry.provider_config.options ? { options: entry.provider_config.options } : {}),
          ...(entry.provider_config.think !== undefined ? { think: entry.provider_config.think } : {}),
        })
      : failingProvider(entry.provider, endpoint.error);
  }
  if (entry.provider === 'cli') return cliProvider(entry, deps);
  if (entry.provider === 'scripted') return scriptedProvider(entry, deps);
  return failingProvider(
    entry.provider,
    `model "${entry.key}" uses unknown provider "${entry.provider}"; use one of openai, openai-compatible, openrouter, lmstudio, vllm, llamacpp, anthropic, ollama, cli, scripted`,
  );
}

/**
 * Why a model cannot be called: in the words its failed call would use, in plain words for the run bar,
 * and in a few words for where room is small (a card on the graph).
 */
export interface ModelSetupProblem {
  message: string;
  plain: string;
  short: string;
}

const IN_SETTINGS = 'in Settings, under Models and providers';

/**
 * What keeps a model from being called at all, before any call is made (no base URL, an API key that is
 * not set, no program or script, an unknown provider); null when nothing does. The run's readiness check
 * asks it.
 */
export function modelSetupProblem(entry: ModelEntry, deps: ProviderDeps): ModelSetupProblem | null {
  const model = `its model ${entry.key}`;
  const defaults = httpProviderDefaults(entry.provider);
  if (defaults) {
    const endpoint = httpEndpoint(entry, defaults, deps);
    if (!endpoint.ok)
      return {
        message: endpoint.error,
        plain: `${model} (${defaults.service}) needs the address of its server: add it ${IN_SETTINGS}`,
        short: `No server address for ${entry.key}`,
      };
    const key = endpoint.value.apiKey();
    if (key.ok) return null;
    const refused = key.error.notGranted;
    return {
      message: key.error.message,
      plain: refused
        ? `${model}: ${refused.plain.reason}; ${refused.plain.fix}`
        : `${model} (${defaults.service}) has no API key yet: paste one ${IN_SETTINGS}`,
      short: refused ? `The key of ${entry.key} is not this org's` : `No API key for ${entry.key}`,
    };
  }
  const incomplete = (message: string) => ({
    message,
    plain: `${model} is not set up completely: open it ${IN_SETTINGS}`,
    short: `${entry.key} is not set up`,
  });
  if (entry.provider === 'cli' && !entry.provider_config.command)
    return incomplete(`model "${entry.key}" (cli) needs provider_config.command, the program to run`);
  if (entry.provider === 'scripted' && !entry.provider_config.script)
    return incomplete(`model "${entry.key}" (scripted) needs provider_config.script, the path of its script`);
  if (!['cli', 'scripted'].includes(entry.provider))
    return incomplete(`model "${entry.key}" uses unknown provider "${entry.provider}"`);
  return null;
}

function cliProvider(entry: ModelEntry, deps: ProviderDeps): ModelProvider {
  const config = entry.provider_config;
  if (!config.command) {
    return failingProvider(
      'cli',
      `model "${entry.key}" (cli) needs provider_config.command, the program to run, e.g. ["llm", "-m", "gpt-4o-mini"]`,
    );
  }
  return new CliProvider({
    modelKey: entry.key,
    command: config.command,
    cwd: resolve(deps.orgPath, config.cwd ?? '.'),
    // Unlike LeMMing, the program does not inherit this process's environment and the API keys in it.
    env: cliEnvironment(deps.programEnv, config.env ?? {}),
    timeoutMs:
      config.timeout_ms ??
      (config.timeout !== undefined ? Math.round(config.timeout * 1000) : DEFAULT_CLI_TIMEOUT_MS),
    preventArgInjection: config.prevent_arg_injection ?? true,
  });
}

function scriptedProvider(entry: ModelEntry, deps: ProviderDeps): ModelProvider {
  const config = entry.provider_config;
  if (!config.script) {
    return failingProvider(
      'scripted',
      `model "${entry.key}" (scripted) needs provider_config.script, the path of its script relative to the org`,
    );
  }
  return new ScriptedProvider({
    modelKey: entry.key,
    orgPath: deps.orgPath,
    script: config.script,
    timeoutMs: config.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    nativeTools: config.native_tools ?? false,
  });
}

type EndpointResult = Result<HttpEndpoint, string>;

function httpEndpoint(entry: ModelEntry, defaults: HttpDefaults, deps: ProviderDeps): EndpointResult {
  const config: ProviderConfig = entry.provider_config;
  const envBaseUrl = defaults.baseUrlEnv ? deps.env[defaults.baseUrlEnv]?.trim() : undefined;
  const baseUrl = config.base_url ?? (envBaseUrl || defaults.baseUrl);
  if (!baseUrl) {
    return {
      ok: false,
      error: `model "${entry.key}" (${defaults.service}) needs provider_config.base_url, the address of the server, e.g. http://localhost:8000/v1`,
    };
  }
  const keyRule: KeyRule = {
    modelKey: entry.key,
    service: defaults.service,
    conventionalEnv: defaults.keyEnv,
    accountSecret: accountSecretName(entry.provider, baseUrl) ?? undefined,
    required: defaults.keyRequired && !isLoopbackUrl(baseUrl),
  };
  return {
    ok: true,
    value: {
      providerName: entry.provider,
      service: defaults.service,
      baseUrl,
      apiKey: () => lookUpApiKey(config, keyRule, deps),
      headers: config.headers ?? {},
      timeoutMs: config.timeout_ms ?? DEFAULT_TIMEOUT_MS,
      maxRetries: config.max_retries ?? DEFAULT_MAX_RETRIES,
      nativeTools: config.native_tools ?? true,
      stream: entry.stream ?? true,
      sampling: {
        ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
        ...(config.top_p !== undefined ? { topP: config.top_p } : {}),
      },
      timing: { ...DEFAULT_RETRY_TIMING, ...deps.retryTiming },
      dispatcher: deps.dispatcher,
    },
  };
}

/** Stands in for a provider that cannot be built, so the problem surfaces on the agent that uses it. */
function failingProvider(name: string, message: string): ModelProvider {
  return {
    name,
    nativeTools: false,
    complete: () => Promise.reject(new ModelCallError({ kind: 'model_setup', message })),
  };
}
