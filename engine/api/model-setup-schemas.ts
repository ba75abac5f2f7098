import { z } from 'zod';
import { ModelKey } from './settings-schemas';

/** The field of the model setup form a problem belongs to (null: the form as a whole). */
export const SetupField = z.enum(['provider', 'baseUrl', 'apiKey', 'modelName', 'key']);
export type SetupField = z.infer<typeof SetupField>;

/** What went wrong while setting a model up, in plain words, at the field to fix. */
export const SetupProblem = z.object({
  field: SetupField.nullable(),
  kind: z.enum([
    'bad_key',
    'wrong_url',
    'model_not_found',
    'server_down',
    'timeout',
    'not_a_server',
    'other',
  ]),
  message: z.string(),
});
export type SetupProblem = z.infer<typeof SetupProblem>;

/** A model a server offers. */
export const ServerModel = z.object({ id: z.string(), label: z.string() });
export type ServerModel = z.infer<typeof ServerModel>;

/**
 * A model server as the setup form describes it. The key is the one typed in the form (used for this
 * call only, never stored by it), else the saved key of `existingModel`.
 */
export const ModelServerInput = z
  .object({
    provider: z.string().trim().min(1, 'Choose a provider.').max(100),
    baseUrl: z.string().trim().max(2000).optional(),
    apiKey: z.string().trim().max(4096).optional(),
    existingModel: ModelKey.optional(),
  })
  .strict();
export type ModelServerInput = z.infer<typeof ModelServerInput>;

/** The models a server offers, or what to fix in the form to get them (a Result: `value` or `error`). */
export const ServerModels = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.array(ServerModel) }),
  z.object({ ok: z.literal(false), error: SetupProblem }),
]);
export type ServerModels = z.infer<typeof ServerModels>;

export const ModelProbeInput = ModelServerInput.extend({
  modelName: z.string().trim().min(1, 'Choose a model.').max(500),
}).strict();
export type ModelProbeInput = z.infer<typeof ModelProbeInput>;

/** The outcome of one tiny call to a model: what it answered, or what to fix. */
export const ModelProbe = z.object({
  ok: z.boolean(),
  message: z.string(),
  latencyMs: z.int().nonnegative().nullable(),
  problem: SetupProblem.nullable(),
});
export type ModelProbe = z.infer<typeof ModelProbe>;

/** A new model with its API key: the key goes to the secret store, models.json names the secret. */
export const AddModelInput = z
  .object({
    key: ModelKey,
    provider: z.string().trim().min(1, 'Choose a provider.').max(100),
    modelName: z.string().trim().min(1, 'Choose a model.').max(500),
    baseUrl: z.string().trim().max(2000).optional(),
    apiKey: z.string().trim().max(4096).optional(),
  })
  .strict();
export type AddModelInput = z.infer<typeof AddModelInput>;

/**
 * A key pasted on a saved model: it goes to the secret the model reads its key from (its own, else its
 * provider account's, which every model of that provider shares).
 */
export const SetModelKeyInput = z
  .object({
    model: ModelKey,
    apiKey: z.string().trim().min(1, 'Paste the API key.').max(4096),
  })
  .strict();
export type SetModelKeyInput = z.infer<typeof SetModelKeyInput>;

/** A model server found running on this computer. */
export const LocalServer = z.object({
  provider: z.enum(['ollama', 'lmstudio']),
  service: z.string(),
  baseUrl: z.string(),
  models: z.array(ServerModel),
});
export type LocalServer = z.infer<typeof LocalServer>;

export const LocalServers = z.object({ servers: z.array(LocalServer) });
export type LocalServers = z.infer<typeof LocalServers>;
