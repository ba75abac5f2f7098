import { availableParallelism } from 'node:os';
import type { ModelEntry, ProviderName } from '../models/models-file';

/** Turns of one tick that may run at once in all, whatever their providers. */
export const DEFAULT_TURN_CONCURRENCY = 64;

/**
 * How many turns may wait on one provider at once. A hosted API serves many calls at once and each turn
 * mostly waits on the network, so 20 agents on a one-second model take about a second, not twenty; a
 * rate limit (429) is retried with backoff inside the call, which slows those turns instead of failing
 * them. A program or server on this computer shares its cores; the scripted provider is the engine's own
 * CPU. `provider_config.max_concurrent_calls` overrides the default for one model's provider.
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

/** The key turns share a limit by: the provider and where it is (a base URL names another server). */
export function providerKey(entry: ModelEntry | string | undefined): string {
  if (entry === undefined || typeof entry === 'string') return '';
  const baseUrl = entry.provider_config.base_url;
  return typeof baseUrl === 'string' ? `${entry.provider} ${baseUrl}` : entry.provider;
}

export function providerConcurrency(entry: ModelEntry | string | undefined): number {
  if (entry === undefined || typeof entry === 'string') return UNKNOWN_MODEL;
  if (entry.provider_config.max_concurrent_calls !== undefined)
    return entry.provider_config.max_concurrent_calls;
  const limit = BY_PROVIDER[entry.provider as ProviderName] ?? UNKNOWN_MODEL;
  return limit === 'cores' ? Math.max(2, availableParallelism()) : limit;
}
