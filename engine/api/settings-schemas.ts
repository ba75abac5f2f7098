import { z } from 'zod';
import { AgentProblem } from './schemas';
import { SecretName } from './secret-name';
import { CatchUp } from './schedule-schemas';

/** The secret store's answer to "can I save a secret here?", with the reason and fix when not. */
export const SecretStoreStatus = z.object({
  canStore: z.boolean(),
  reason: z.string().optional(),
  fix: z.string().optional(),
  /** Where secrets are kept, in words (never inside the org folder). */
  location: z.string(),
});
export type SecretStoreStatus = z.infer<typeof SecretStoreStatus>;

/** A secret as the renderer may know it: name and whether it is set, never the value or its length. */
export const SecretListItem = z.object({
  name: z.string(),
  isSet: z.boolean(),
  updatedAt: z.string().nullable(),
  source: z.enum(['file', 'environment', 'safe_storage']).nullable(),
  /** Models and connectors that need it, in words. */
  usedBy: z.array(z.string()),
  /** Whether the open org may use it (changed with `trust.grant`); null when no org is open. */
  grantedToOrg: z.boolean().nullable(),
});
export type SecretListItem = z.infer<typeof SecretListItem>;

export const SecretList = z.object({ secrets: z.array(SecretListItem), store: SecretStoreStatus });

export const SetSecretInput = z
  .object({ name: SecretName, value: z.string().min(1, 'A secret must not be empty.').max(65_536) })
  .strict();

export const SecretNameInput = z.object({ name: SecretName }).strict();

export const SecretChanged = z.object({ name: z.string(), isSet: z.boolean(), existed: z.boolean() });

export const ProviderInfo = z.object({
  name: z.string(),
  service: z.string(),
  defaultBaseUrl: z.string().nullable(),
  needsApiKey: z.boolean(),
  /** Runs on this computer (no key, no network beyond it). */
  local: z.boolean(),
});
export type ProviderInfo = z.infer<typeof ProviderInfo>;

export const Prices = z
  .object({
    input_per_million: z.number().finite().nonnegative(),
    output_per_million: z.number().finite().nonnegative(),
    /** Prompt tokens served from the provider's cache. */
    cached_input_per_million: z.number().finite().nonnegative().optional(),
    /** Prompt tokens written to Anthropic's cache. */
    cache_write_per_million: z.number().finite().nonnegative().optional(),
  })
  .strict();

/** One models.json entry as the settings view shows it: header values and keys are never included. */
export const ModelInfo = z.object({
  key: z.string(),
  provider: z.string(),
  modelName: z.string(),
  baseUrl: z.string().nullable(),
  apiKeySecret: z.string().nullable(),
  /**
   * The secret the model's key is read from: its own (apiKeySecret), else its provider account's, which
   * every model of that provider shares (docs/ARCHITECTURE.md, "Keys per provider"); null when it reads a
   * variable or needs no key.
   */
  keySecret: z.string().nullable(),
  /** Whether keySecret is set; null when there is none. */
  apiKeySet: z.boolean().nullable(),
  apiKeyEnv: z.string().nullable(),
  prices: Prices.nullable(),
  headerNames: z.array(z.string()),
  /** Agents whose resume uses this model. */
  usedBy: z.array(z.string()),
  /**
   * How many agents may wait on this model's server at once: `learned` from its answers in earlier runs,
   * the `default` it starts learning from, or `fixed` (max_concurrent_calls, or a program's core count).
   */
  callsAtOnce: z.object({ limit: z.int().positive(), how: z.enum(['learned', 'default', 'fixed']) }),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

export const ModelList = z.object({
  models: z.array(ModelInfo),
  problems: z.array(AgentProblem),
  warnings: z.array(AgentProblem),
  providers: z.array(ProviderInfo),
});
export type ModelList = z.infer<typeof ModelList>;

export const ModelKey = z
  .string()
  .trim()
  .min(1, 'Give the model a key.')
  .max(200)
  .refine(
    (key) => [...key].every((char) => char.charCodeAt(0) >= 0x20),
    'A model key must not contain control characters.',
  );

export const ModelPatch = z
  .object({
    provider: z.string().trim().min(1).max(100),
    model_name: z.string().trim().min(1).max(500),
    base_url: z.string().trim().max(2000).nullable(),
    api_key_secret: SecretName.nullable(),
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'api_key_env is an environment variable name like MY_API_KEY')
      .nullable(),
    prices: Prices.nullable(),
    timeout_ms: z.int().positive().max(3_600_000).nullable(),
  })
  .partial()
  .strict();
export type ModelPatch = z.infer<typeof ModelPatch>;

export const ModelUpdateInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('set'), key: ModelKey, patch: ModelPatch }).strict(),
  z.object({ action: z.literal('remove'), key: ModelKey }).strict(),
]);

export const RunSettings = z.object({
  /** Seconds between ticks when running (org_config.json base_turn_seconds). */
  tickIntervalSeconds: z.number(),
  /** The last tick a run goes to (org_config.json max_turns); null for no end. */
  maxTurns: z.int().nullable(),
  /** After ticks that did not run, whether a due agent catches up once (lemming/config/schedule.json). */
  catchUp: CatchUp,
});

export const Settings = z.object({
  run: RunSettings,
  secretStore: SecretStoreStatus,
  providers: z.array(ProviderInfo),
});

export const SettingsUpdateInput = z
  .object({
    tickIntervalSeconds: z.number().finite().positive().max(86_400),
    maxTurns: z.int().min(1).nullable(),
    catchUp: CatchUp,
  })
  .partial()
  .strict();

export const ConnectionTestInput = z.object({ model: ModelKey }).strict();

export const ConnectionTest = z.object({
  ok: z.boolean(),
  /** What happened, in words: the model's reply, or what went wrong and what to do. */
  message: z.string(),
  latencyMs: z.int().nonnegative().nullable(),
});

export const OpenDemoInput = z.object({ fresh: z.boolean().optional() }).strict();
