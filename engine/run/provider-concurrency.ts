import { availableParallelism } from 'node:os';
import { describeEndpoint } from '../models/http-json';
import type { ModelEntry, ProviderName } from '../models/models-file';

/** Turns of one tick that may run at once in all, whatever their providers. */
export const DEFAULT_TURN_CONCURRENCY = 64;

/**
 * How many turns may wait on one provider at once when nothing was learned of it yet: where the
 * adaptive limit of a model server (engine/run/adaptive-limit.ts) starts. A hosted API serves many
 * calls at once; a server on this computer shares its cores. A program's limit (the `cli` provider)
 * and the scripted provider's stay as they are: the engine's own CPU. `max_concurrent_calls` fixes one
 * model's provider to a number.
 */
const BY_PROVIDER: Record<ProviderName, number | 'cores'> = {
  openai: 32,
  'openai-compatible': 32,
  openrouter: 32,
  anthropic: 32,
  vllm: 32,
  lmstudio: 4,
  llamacpp: 4,
  ollama: 4,
  cli: 'cores',
  scripted: 4,
};
const UNKNOWN_MODEL = 4;
const NOT_A_SERVER = new Set<ProviderName>(['cli', 'scripted']);

/** The key turns share a limit by: the provider and where it is (a base URL names another server). */
export function providerKey(entry: ModelEntry | string | undefined): string {
  if (entry === undefined || typeof entry === 'string') return '';
  const baseUrl = entry.provider_config.base_url;
  // Without its user:password and query: the same server, and the key is kept in the org's run state.
  return typeof baseUrl === 'string' ? `${entry.provider} ${describeEndpoint(baseUrl)}` : entry.provider;
}

/**
 * Where a provider's limit starts, and whether it is learned from the server's answers: a number set
 * by hand (`max_concurrent_calls`) stays as it is, and so does the limit of a provider that is no
 * server (a program, the scripted provider, a model that cannot be used).
 */
export function providerConcurrency(entry: ModelEntry | string | undefined): {
  limit: number;
  adaptive: boolean;
} {
  if (entry === undefined || typeof entry === 'string') return { limit: UNKNOWN_MODEL, adaptive: false };
  if (entry.provider_config.max_concurrent_calls !== undefined)
    return { limit: entry.provider_config.max_concurrent_calls, adaptive: false };
  const limit = BY_PROVIDER[entry.provider as ProviderName] ?? UNKNOWN_MODEL;
  if (limit === 'cores') return { limit: Math.max(2, availableParallelism()), adaptive: false };
  return { limit, adaptive: !NOT_A_SERVER.has(entry.provider as ProviderName) };
}
