import type { Result } from '../api/result';
import { describeNotGranted, type GrantRefusal, type NotGranted } from '../api/grant-refusal';
import type { ProviderConfig } from './models-file';

export interface KeySources {
  /** A stored secret's value, when this org may use it. */
  resolveSecret: (name: string) => string | undefined;
  /** The environment variables this org may read: only those the person granted it. */
  env: Record<string, string | undefined>;
  /** Which secret or variable the org names is refused to it, so it is never called "not set". */
  refusal: GrantRefusal;
}

export interface KeyRule {
  modelKey: string;
  /** The provider as people know it, for messages: "OpenAI", "OpenRouter". */
  service: string;
  /** The variable this provider's own tools read, e.g. OPENAI_API_KEY; none for generic endpoints. */
  conventionalEnv?: string;
  /**
   * The stored secret of the provider account (accountSecretName): used when the entry names no key
   * of its own, and only when it is granted to the org, since the person pasted it for this org.
   */
  accountSecret?: string;
  /** False for local endpoints, which work without a key. */
  required: boolean;
}

/** Why there is no key for a call, and whether it is because the org may not use the one it names. */
export interface ApiKeyProblem {
  kind: 'missing_key' | 'not_granted';
  message: string;
  notGranted: NotGranted | null;
  /** The model's key and its service, for the words. */
  model: string;
  service: string;
  /** The provider's own variable (OPENAI_API_KEY), which this computer may have and the org may not read. */
  refusedVariable?: string;
}

/** The key (none for a local server that needs none), or where to put one. */
export type ApiKeyLookup = Result<string | undefined, ApiKeyProblem>;

/**
 * Finds the API key for a call: the secret named in `api_key_secret`, else the variable named in
 * `api_key_env`, else the provider account's stored key, else the conventional variable. A source that is named but empty, or not granted to
 * the org, is an error even when no key is required, because the user asked for it.
 */
export function lookUpApiKey(config: ProviderConfig, rule: KeyRule, sources: KeySources): ApiKeyLookup {
  const model = `model "${rule.modelKey}" (${rule.service})`;
  const problem = (
    message: string,
    notGranted: NotGranted | null = null,
    refusedVariable?: string,
  ): ApiKeyLookup => ({
    ok: false,
    error: {
      kind: notGranted ? 'not_granted' : 'missing_key',
      message,
      notGranted,
      model: rule.modelKey,
      service: rule.service,
      ...(refusedVariable !== undefined ? { refusedVariable } : {}),
    },
  });
  const named =
    config.api_key_secret !== undefined
      ? sources.refusal('secret', config.api_key_secret)
      : config.api_key_env !== undefined
        ? sources.refusal('environment', config.api_key_env)
        : null;
  if (named) return problem(`${model}: ${describeNotGranted(named)}`, named);
  if (config.api_key_secret !== undefined) {
    const key = nonEmpty(sources.resolveSecret(config.api_key_secret));
    if (key) return { ok: true, value: key };
    return problem(
      `${model} uses the secret "${config.api_key_secret}", which is not set: add it in Settings → API keys`,
    );
  }
  if (config.api_key_env !== undefined) {
    const key = nonEmpty(sources.env[config.api_key_env]);
    if (key) return { ok: true, value: key };
    return problem(
      `${model} reads its API key from the environment variable ${config.api_key_env}, which is not set`,
    );
  }
  if (rule.accountSecret !== undefined && sources.refusal('secret', rule.accountSecret) === null) {
    const key = nonEmpty(sources.resolveSecret(rule.accountSecret));
    if (key) return { ok: true, value: key };
  }
  const conventional = rule.conventionalEnv ? nonEmpty(sources.env[rule.conventionalEnv]) : undefined;
  if (conventional || !rule.required) return { ok: true, value: conventional };
  const refused = rule.conventionalEnv ? sources.refusal('environment', rule.conventionalEnv) : null;
  return problem(
    `${model} needs an API key: paste it in Settings, under Models and providers (from the command line: store it as a secret and name it in provider_config.api_key_secret, or set the ${rule.conventionalEnv ?? 'provider_config.api_key_env'} environment variable)${refused ? `; ${describeNotGranted(refused)}` : ''}`,
    null,
    refused?.name,
  );
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
