import { z } from 'zod';
import { MAX_JSON_DEPTH } from '../files/json-text';
import { exceedsJsonDepth, pythonJsonDumps } from './python-format';

/**
 * What a memory update does to one key, as a pure function. Unlike LeMMing (whose append and merge
 * write the raw update value), append appends and merge merges, and every path checks the same limits.
 */

export const MemoryOpName = z.enum(['set', 'append', 'merge', 'delete']);
export type MemoryOpName = z.infer<typeof MemoryOpName>;

export const MemoryUpdate = z.object({
  key: z.string(),
  op: MemoryOpName,
  /** Ignored by delete; a missing value is stored as null, as LeMMing does. */
  value: z.unknown(),
});
export type MemoryUpdate = z.infer<typeof MemoryUpdate>;

export const MemoryLimits = z.object({
  /** Measured as LeMMing's memory_write measures it: the length of `json.dumps(value)`. */
  maxValueBytes: z.number().int().positive(),
  maxKeysPerAgent: z.number().int().positive(),
  maxKeyLength: z.number().int().positive(),
  maxDepth: z.number().int().positive().max(MAX_JSON_DEPTH),
});
export type MemoryLimits = z.infer<typeof MemoryLimits>;

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = {
  maxValueBytes: 51200,
  maxKeysPerAgent: 200,
  maxKeyLength: 100,
  maxDepth: 32,
};

export const MemoryProblemCode = z.enum([
  'invalid_key',
  'key_too_long',
  'reserved_key',
  'value_too_large',
  'value_too_deep',
  'too_many_keys',
  'merge_target_not_object',
  'merge_value_not_object',
  'delete_missing',
  'stored_value_unreadable',
]);
export type MemoryProblemCode = z.infer<typeof MemoryProblemCode>;

export const MemoryProblem = z.object({ code: MemoryProblemCode, message: z.string() });
export type MemoryProblem = z.infer<typeof MemoryProblem>;

export type MemoryOpOutcome =
  | { ok: true; effect: 'write'; operation: Exclude<MemoryOpName, 'delete'>; value: unknown }
  | { ok: true; effect: 'delete' }
  | { ok: true; effect: 'none'; warning: MemoryProblem }
  | { ok: false; error: MemoryProblem };

export interface MemoryOpContext {
  /** How many keys the agent has now; needed to refuse a new key past the limit. */
  existingKeyCount?: number;
  limits?: MemoryLimits;
}

export const MEMORY_KEY_PATTERN = /^[a-zA-Z0-9_-]+$/;

/** Names Windows will not create as files, with or without an extension. */
const WINDOWS_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

export function checkMemoryKey(
  key: string,
  limits: MemoryLimits = DEFAULT_MEMORY_LIMITS,
): MemoryProblem | null {
  if (!MEMORY_KEY_PATTERN.test(key)) {
    return {
      code: 'invalid_key',
      message: `Memory key '${key}' is invalid. Only alphanumeric characters, underscores, and hyphens are allowed.`,
    };
  }
  if (key.length > limits.maxKeyLength) {
    return {
      code: 'key_too_long',
      message: `Memory key '${key}' is ${key.length} characters long; the limit is ${limits.maxKeyLength}.`,
    };
  }
  if (WINDOWS_DEVICE_NAME.test(key)) {
    return {
      code: 'reserved_key',
      message: `Memory key '${key}' is a reserved file name on Windows; choose another key.`,
    };
  }
  return null;
}

/** The size LeMMing's memory_write checks: `len(json.dumps(value))`, which is bytes since the text is ASCII. */
export function memoryValueBytes(value: unknown): number {
  return pythonJsonDumps(value).length;
}

export function applyMemoryOp(
  current: unknown,
  update: MemoryUpdate,
  context: MemoryOpContext = {},
): MemoryOpOutcome {
  const limits = context.limits ?? DEFAULT_MEMORY_LIMITS;
  const keyProblem = checkMemoryKey(update.key, limits);
  if (keyProblem) return { ok: false, error: keyProblem };

  if (update.op === 'delete') {
    if (current === undefined) {
      return {
        ok: true,
        effect: 'none',
        warning: {
          code: 'delete_missing',
          message: `Memory key '${update.key}' does not exist; nothing to delete.`,
        },
      };
    }
    return { ok: true, effect: 'delete' };
  }

  const isNewKey = current === undefined;
  if (isNewKey && (context.existingKeyCount ?? 0) >= limits.maxKeysPerAgent) {
    return {
      ok: false,
      error: {
        code: 'too_many_keys',
        message: `This agent already has ${limits.maxKeysPerAgent} memory keys, the limit; delete one before adding '${update.key}'.`,
      },
    };
  }

  const value = update.value === undefined ? null : update.value;
  if (exceedsJsonDepth(value, limits.maxDepth)) return { ok: false, error: tooDeep(update.key, limits) };

  const combined = combine(current, value, update.op, update.key);
  if (!combined.ok) return combined;

  if (exceedsJsonDepth(combined.value, limits.maxDepth))
    return { ok: false, error: tooDeep(update.key, limits) };
  const bytes = memoryValueBytes(combined.value);
  if (bytes > limits.maxValueBytes) {
    return {
      ok: false,
      error: {
        code: 'value_too_large',
        message: `Memory value too large (${bytes} bytes). Max size is ${limits.maxValueBytes} bytes.`,
      },
    };
  }
  return { ok: true, effect: 'write', operation: update.op, value: combined.value };
}

function combine(
  current: unknown,
  value: unknown,
  op: 'set' | 'append' | 'merge',
  key: string,
): { ok: true; value: unknown } | { ok: false; error: MemoryProblem } {
  if (op === 'set') return { ok: true, value };
  if (op === 'append') {
    if (current === undefined) return { ok: true, value: [value] };
    return { ok: true, value: Array.isArray(current) ? [...current, value] : [current, value] };
  }
  if (current !== undefined && !isPlainObject(current)) {
    return {
      ok: false,
      error: {
        code: 'merge_target_not_object',
        message: `Cannot merge into memory key '${key}': it holds ${describe(current)}, not an object. Use set to replace it.`,
      },
    };
  }
  if (!isPlainObject(value)) {
    return {
      ok: false,
      error: {
        code: 'merge_value_not_object',
        message: `Cannot merge ${describe(value)} into memory key '${key}': merge needs an object.`,
      },
    };
  }
  return { ok: true, value: deepMerge(current ?? {}, value) };
}

/** Objects merge key by key at every depth; anything else in the update replaces what was there. */
function deepMerge(base: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const merged = new Map(Object.entries(base));
  for (const [key, incoming] of Object.entries(update)) {
    const existing = merged.get(key);
    merged.set(
      key,
      isPlainObject(existing) && isPlainObject(incoming) ? deepMerge(existing, incoming) : incoming,
    );
  }
  // fromEntries defines own properties, so a "__proto__" key stays data instead of changing the prototype.
  return Object.fromEntries(merged);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

function tooDeep(key: string, limits: MemoryLimits): MemoryProblem {
  return {
    code: 'value_too_deep',
    message: `Memory value for '${key}' nests deeper than ${limits.maxDepth} levels.`,
  };
}
