import { join } from 'node:path';
import { z } from 'zod';
import type { AgentProblem } from '../api/schemas';
import { jsonNestingProblem, parseJsonText } from '../files/json-text';
import { readTextFile } from '../files/read-text-file';
import { isPlainObject } from './json-values';
import { shlexSplit } from './shlex-split';

export const MODELS_FILE = 'lemming/config/models.json';

/** Provider names this app runs. The OpenAI-compatible ones differ only in defaults. */
export const PROVIDER_NAMES = [
  'openai',
  'openai-compatible',
  'openrouter',
  'lmstudio',
  'vllm',
  'llamacpp',
  'anthropic',
  'ollama',
  'cli',
  'scripted',
] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(name);
}

/** A problem in models.json, in the same shape as every other config problem the UI shows. */
export type ModelsFileProblem = AgentProblem;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const text = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} must not be empty`);

const positiveWhole = (field: string, unit: string) =>
  z
    .number({ error: `${field} must be a number of ${unit}` })
    .int(`${field} must be a whole number of ${unit}`)
    .positive(`${field} must be greater than 0`);

const HttpUrl = z
  .string({ error: 'base_url must be text' })
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'base_url must be an http:// or https:// address');

const Prices = z.looseObject({
  input_per_million: z
    .number({ error: 'prices.input_per_million must be a number' })
    .nonnegative('prices.input_per_million must not be negative'),
  output_per_million: z
    .number({ error: 'prices.output_per_million must be a number' })
    .nonnegative('prices.output_per_million must not be negative'),
  /** Prompt tokens read from the provider's cache; charged at the input price when absent. */
  cached_input_per_million: z
    .number({ error: 'prices.cached_input_per_million must be a number' })
    .nonnegative('prices.cached_input_per_million must not be negative')
    .optional(),
  /** Prompt tokens written to Anthropic's cache; charged at the input price when absent. */
  cache_write_per_million: z
    .number({ error: 'prices.cache_write_per_million must be a number' })
    .nonnegative('prices.cache_write_per_million must not be negative')
    .optional(),
});

const Headers = z
  .record(z.string(), z.string({ error: 'each header value must be text' }), {
    error: 'headers must be an object of name: value',
  })
  .superRefine((headers, context) => {
    for (const [name, value] of Object.entries(headers)) {
      if (!HEADER_NAME.test(name))
        context.addIssue({ code: 'custom', path: [name], message: `"${name}" is not a valid header name` });
      if (/[\r\n\0]/.test(value))
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `header ${name} must not contain line breaks`,
        });
    }
  });

/** A list of words, or one command line split like Python's shlex (as LeMMing does). */
const Command = z
  .union([z.array(z.string(), { error: 'command must be a list of words or a command line' }), z.string()], {
    error: 'command must be a list of words or a command line',
  })
  .transform((value, context) => {
    const words = typeof value === 'string' ? shlexSplit(value) : { ok: true as const, value };
    if (!words.ok) {
      context.addIssue({ code: 'custom', message: `command cannot be split: ${words.error}` });
      return z.NEVER;
    }
    if (words.value.length === 0 || words.value[0] === '') {
      context.addIssue({ code: 'custom', message: 'command must name a program to run' });
      return z.NEVER;
    }
    return words.value;
  });

export const ProviderConfig = z.looseObject({
  base_url: HttpUrl.optional(),
  api_key_secret: text('api_key_secret').optional(),
  api_key_env: text('api_key_env')
    .regex(ENV_NAME, 'api_key_env must be an environment variable name like MY_API_KEY')
    .optional(),
  timeout_ms: positiveWhole('timeout_ms', 'milliseconds').optional(),
  max_retries: z
    .number({ error: 'max_retries must be a number' })
    .int('max_retries must be a whole number')
    .min(0, 'max_retries must not be negative')
    .max(10, 'max_retries must be at most 10')
    .optional(),
  /** How many turns may wait on this model's provider at once (engine/run/provider-concurrency.ts). */
  max_concurrent_calls: positiveWhole('max_concurrent_calls', 'calls').optional(),
  prices: Prices.optional(),
  headers: Headers.optional(),
  native_tools: z.boolean({ error: 'native_tools must be true or false' }).optional(),
  command: Command.optional(),
  cwd: text('cwd').optional(),
  env: z
    .record(z.string(), z.string({ error: 'each env value must be text' }), {
      error: 'env must be an object of NAME: value',
    })
    .optional(),
  timeout: z
    .number({ error: 'timeout must be a number of seconds' })
    .positive('timeout must be greater than 0')
    .optional(),
  prevent_arg_injection: z.boolean({ error: 'prevent_arg_injection must be true or false' }).optional(),
  script: text('script').optional(),
  temperature: z
    .number({ error: 'temperature must be a number' })
    .min(0, 'temperature must not be negative')
    .max(2, 'temperature must be at most 2')
    .optional(),
  top_p: z
    .number({ error: 'top_p must be a number' })
    .gt(0, 'top_p must be greater than 0')
    .max(1, 'top_p must be at most 1')
    .optional(),
  /** Ollama's model options (num_ctx, top_k, …), sent as they are. */
  options: z
    .record(z.string(), z.unknown(), { error: 'options must be an object of name: value' })
    .optional(),
  /** Ollama: let a thinking model think (true/false, or "low", "medium", "high"). */
  think: z
    .union([z.boolean(), z.enum(['low', 'medium', 'high'])], {
      error: 'think must be true, false, "low", "medium" or "high"',
    })
    .optional(),
});
export type ProviderConfig = z.infer<typeof ProviderConfig>;

const INPUT_WORDS = 'input must be a list of "text", "image" and "audio"';

const ModelEntryFields = z.looseObject({
  provider: text('provider'),
  model_name: text('model_name'),
  /** Stream the answer as it is written (the default for providers that can). */
  stream: z.boolean({ error: 'stream must be true or false' }).optional(),
  /**
   * What the model takes besides text: `["text", "image"]` gives it the images of tool results,
   * `"audio"` their sounds (as its API allows). Text only when absent.
   */
  input: z
    .array(z.enum(['text', 'image', 'audio'], { error: INPUT_WORDS }), { error: INPUT_WORDS })
    .optional(),
  provider_config: ProviderConfig.optional(),
});

/** One models.json entry, validated, with the key it is stored under and every unknown field kept. */
export type ModelEntry = z.infer<typeof ModelEntryFields> & { key: string; provider_config: ProviderConfig };

export interface ModelsFile {
  /** Valid entries, in file order. */
  entries: ModelEntry[];
  /** Entries that cannot be used and why; the rest of the file still is. */
  problems: ModelsFileProblem[];
  /** Usable but suspicious: an unknown provider, a header that looks like a credential. */
  warnings: ModelsFileProblem[];
}

/** Validates the text of models.json (LeMMing's shape) entry by entry; never throws. */
export function parseModelsFile(source: string, file: string = MODELS_FILE): ModelsFile {
  // Before anything walks the entries (the schema, the provider cache's key), so no depth can overflow the stack.
  const tooDeep = jsonNestingProblem(source);
  if (tooDeep) return { entries: [], problems: [{ file, field: '', ...tooDeep }], warnings: [] };
  const parsed = parseJsonText(source);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return { entries: [], problems: [{ file, field: '', message, line, column }], warnings: [] };
  }
  if (!isPlainObject(parsed.value)) {
    return {
      entries: [],
      problems: [{ file, field: '', message: 'models.json must be an object of model keys' }],
      warnings: [],
    };
  }

  const result: ModelsFile = { entries: [], problems: [], warnings: [] };
  for (const [key, value] of Object.entries(parsed.value)) {
    const checked = ModelEntryFields.safeParse(value);
    if (!checked.success) {
      result.problems.push(...checked.error.issues.map((issue) => toProblem(file, key, value, issue)));
      continue;
    }
    const entry: ModelEntry = { ...checked.data, key, provider_config: checked.data.provider_config ?? {} };
    result.entries.push(entry);
    result.warnings.push(...entryWarnings(file, entry));
  }
  return result;
}

/** Reads `<org>/lemming/config/models.json`. A missing file is a problem, not an exception. */
export async function readModelsFile(orgPath: string): Promise<ModelsFile> {
  const read = await readTextFile(join(orgPath, MODELS_FILE));
  if (!read.found)
    return { entries: [], problems: [{ file: MODELS_FILE, field: '', message: read.message }], warnings: [] };
  const source = read.text;
  return parseModelsFile(source);
}

export function findModelEntry(models: ModelsFile, key: string): ModelEntry | undefined {
  return models.entries.find((entry) => entry.key === key);
}

function toProblem(file: string, key: string, entry: unknown, issue: z.core.$ZodIssue): ModelsFileProblem {
  const field = [key, ...issue.path.map(String)].join('.');
  if (issue.path.length === 0 && issue.code === 'invalid_type') {
    return { file, field, message: `model "${key}" must be an object with provider and model_name` };
  }
  const missing = issue.code === 'invalid_type' && valueAt(entry, issue.path) === undefined;
  return {
    file,
    field,
    message: missing
      ? `model "${key}" is missing required field "${issue.path.map(String).join('.')}"`
      : `model "${key}": ${issue.message}`,
  };
}

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'x-api-key',
  'api-key',
  'proxy-authorization',
  'cookie',
]);

function entryWarnings(file: string, entry: ModelEntry): ModelsFileProblem[] {
  const warnings: ModelsFileProblem[] = [];
  if (!isProviderName(entry.provider)) {
    warnings.push({
      file,
      field: `${entry.key}.provider`,
      message: `model "${entry.key}" uses unknown provider "${entry.provider}"; known providers: ${PROVIDER_NAMES.join(', ')}`,
    });
  }
  for (const name of Object.keys(entry.provider_config.headers ?? {})) {
    if (CREDENTIAL_HEADERS.has(name.toLowerCase())) {
      warnings.push({
        file,
        field: `${entry.key}.provider_config.headers.${name}`,
        message: `model "${entry.key}": header ${name} looks like a credential; store it as a secret and name it in api_key_secret instead`,
      });
    }
  }
  return warnings;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const step of path) {
    if (!isPlainObject(value)) return undefined;
    value = value[String(step)];
  }
  return value;
}
