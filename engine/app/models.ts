import { join } from 'node:path';
import type { z } from 'zod';
import { fail, ok, type IpcResult } from '../api/result';
import type { ModelInfo, ModelList, ModelPatch, ModelUpdateInput } from '../api/settings-schemas';
import type { LearnedLimit } from '../run/adaptive-limit';
import { providerConcurrency, providerKey } from '../run/provider-concurrency';
import { readLearned } from '../run/server-limits';
import { accountSecretName } from '../models/create-provider';
import { MODELS_FILE, parseModelsFile, readModelsFile, type ModelEntry } from '../models/models-file';
import { writeFileAtomic } from '../files/atomic-write';
import { discoverAgents } from '../org/discover';
import { editJsonText, type JsonEdit } from '../files/json-edit';
import { readTextFile } from '../files/read-text-file';
import { runSerially } from '../files/serial-by-key';
import type { SecretStore } from '../secrets/secret-store';
import { issuesFromProblems } from './problems';
import { PROVIDERS } from './providers';

/**
 * Where a model's key comes from: the secret its entry names, else (when it names no variable either) its
 * provider account's secret, if the provider needs a key or that secret was stored.
 */
export function keySecretOf(entry: ModelEntry, stored: ReadonlySet<string>): string | null {
  const config = entry.provider_config;
  if (config.api_key_secret) return config.api_key_secret;
  if (config.api_key_env) return null;
  const account = accountSecretName(entry.provider, config.base_url);
  const needsKey = PROVIDERS.find((provider) => provider.name === entry.provider)?.needsApiKey ?? false;
  return account && (needsKey || stored.has(account)) ? account : null;
}

/** models.json as the settings view shows it: no header values, no keys, only whether a key is set. */
export async function listModels(orgPath: string, secrets: SecretStore): Promise<ModelList> {
  const [models, agents, stored, { learned }] = await Promise.all([
    readModelsFile(orgPath),
    discoverAgents(orgPath),
    secrets.list(),
    readLearned(orgPath),
  ]);
  const setNames = new Set(stored.map((info) => info.name));
  const usedBy = new Map<string, string[]>();
  for (const agent of agents) {
    if (!agent.valid) continue;
    const key = agent.resume.model.key;
    usedBy.set(key, [...(usedBy.get(key) ?? []), agent.resume.name]);
  }
  return {
    models: models.entries.map((entry) => {
      const config = entry.provider_config;
      const keySecret = keySecretOf(entry, setNames);
      return {
        key: entry.key,
        provider: entry.provider,
        modelName: entry.model_name,
        baseUrl: config.base_url ?? null,
        apiKeySecret: config.api_key_secret ?? null,
        keySecret,
        apiKeySet: keySecret ? setNames.has(keySecret) : null,
        apiKeyEnv: config.api_key_env ?? null,
        prices: config.prices
          ? {
              input_per_million: config.prices.input_per_million,
              output_per_million: config.prices.output_per_million,
              ...(config.prices.cached_input_per_million !== undefined
                ? { cached_input_per_million: config.prices.cached_input_per_million }
                : {}),
              ...(config.prices.cache_write_per_million !== undefined
                ? { cache_write_per_million: config.prices.cache_write_per_million }
                : {}),
            }
          : null,
        headerNames: Object.keys(config.headers ?? {}),
        usedBy: usedBy.get(entry.key) ?? [],
        callsAtOnce: callsAtOnce(entry, learned),
      };
    }),
    problems: models.problems,
    warnings: models.warnings,
    providers: [...PROVIDERS],
  };
}

function callsAtOnce(entry: ModelEntry, learned: Record<string, LearnedLimit>): ModelInfo['callsAtOnce'] {
  const { limit, adaptive } = providerConcurrency(entry);
  if (!adaptive) return { limit, how: 'fixed' };
  const known = learned[providerKey(entry)];
  return known ? { limit: known.limit, how: 'learned' } : { limit, how: 'default' };
}

const TOP_LEVEL: readonly string[] = ['provider', 'model_name'];

/** The edits of a patch to an existing entry: one per field, `null` removing it. */
function modelEdits(key: string, patch: ModelPatch): JsonEdit[] {
  return Object.entries(patch).map(([field, value]) => {
    const path = TOP_LEVEL.includes(field) ? [key, field] : [key, 'provider_config', field];
    return value === null ? { path, remove: true as const } : { path, value };
  });
}

/** A new entry in LeMMing's shape, written as one value. */
function newModelEntry(patch: ModelPatch): Record<string, unknown> {
  const config = Object.fromEntries(
    Object.entries(patch).filter(
      ([field, value]) => !TOP_LEVEL.includes(field) && value !== null && value !== undefined,
    ),
  );
  return {
    provider: patch.provider,
    model_name: patch.model_name,
    ...(Object.keys(config).length > 0 ? { provider_config: config } : {}),
  };
}

/**
 * Adds, changes or removes one entry of models.json with the text-preserving editor. The entry must be
 * valid afterwards or nothing is written; problems elsewhere in the file do not block it.
 */
export function updateModels(
  orgPath: string,
  input: z.output<typeof ModelUpdateInput>,
): Promise<IpcResult<null>> {
  const path = join(orgPath, MODELS_FILE);
  return runSerially(path, async () => {
    const read = await readTextFile(path);
    if (!read.found && !read.missing)
      return fail('org_unusable', `${MODELS_FILE} cannot be read: ${read.message}`);
    const text = read.found ? read.text : '{}\n';
    const before = parseModelsFile(text);
    const exists =
      before.entries.some((entry) => entry.key === input.key) ||
      before.problems.some((problem) => problem.field.split('.')[0] === input.key);
    if (input.action === 'set' && !exists && (!input.patch.provider || !input.patch.model_name))
      return fail('invalid_change', `A new model needs a provider and a model name.`, [
        { path: 'patch', message: 'give provider and model_name for a new model' },
      ]);
    if (input.action === 'remove' && !exists)
      return fail('not_found', `There is no model "${input.key}" in ${MODELS_FILE}.`);

    const edits: JsonEdit[] =
      input.action === 'remove'
        ? [{ path: [input.key], remove: true }]
        : exists
          ? modelEdits(input.key, input.patch)
          : [{ path: [input.key], value: newModelEntry(input.patch) }];
    const edited = editJsonText(text, edits);
    if (!edited.ok)
      return fail('invalid_change', `${MODELS_FILE} could not be changed: ${edited.error.message}`);
    const problems = parseModelsFile(edited.value).problems.filter(
      (problem) => problem.field.split('.')[0] === input.key,
    );
    if (problems.length > 0)
      return fail(
        'invalid_change',
        `The model "${input.key}" would not be valid.`,
        issuesFromProblems(problems),
      );
    if (edited.changed) await writeFileAtomic(path, edited.value);
    return ok(null);
  });
}
