import type { Problem } from '../api/problem';
import { opendirSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Result } from '../api/result';
import { writeFileAtomic } from '../files/atomic-write';
import { whenExists } from '../files/when-exists';
import { readJsonObjectText } from './json-object-file';
import {
  applyMemoryOp,
  checkMemoryKey,
  DEFAULT_MEMORY_LIMITS,
  type MemoryLimits,
  type MemoryProblem,
  type MemoryUpdate,
} from './memory-ops';
import { pythonJsonDumps, pythonUtcIsoFormat, utcNowMicros } from './python-format';

/**
 * An agent's memory on disk, in LeMMing's format: `agents/<name>/memory/<key>.json` holding
 * `{key, value, timestamp_utc, agent, operation, tick}`, written with indent 2 like `json.dump`.
 */

export const MEMORY_RECORD_KEYS = ['key', 'value', 'timestamp_utc', 'agent', 'operation', 'tick'] as const;

export const MemoryRecord = z.object({
  key: z.string(),
  value: z.unknown(),
  timestamp_utc: z.string().nullable(),
  agent: z.string().nullable(),
  operation: z.string().nullable(),
  tick: z.number().int().nullable(),
});
export type MemoryRecord = z.infer<typeof MemoryRecord>;

/** A record as read from disk: missing fields are null, and fields LeMMing does not write are kept in `extra`. */
export const StoredMemoryRecord = MemoryRecord.extend({ extra: z.record(z.string(), z.unknown()) });
export type StoredMemoryRecord = z.infer<typeof StoredMemoryRecord>;

/** A key's stored record and the file's JSON as read. */
export interface StoredMemory {
  record: StoredMemoryRecord;
  raw: Record<string, unknown>;
}

/** A key's memory, null when the key has none. */
export type MemoryRead = Result<StoredMemory | null, Required<Problem>>;

export interface MemoryListing {
  /** Up to the requested number of keys, in directory order as LeMMing's prompt lists them. */
  entries: Array<{ key: string; value: unknown }>;
  /** More memory files exist than were listed. */
  truncated: boolean;
  /** Files among the listed ones that could not be read; LeMMing skips these too. */
  problems: Required<Problem>[];
  /** The names of the files read, in the order read. */
  files: string[];
}

export type MemoryUpdateOutcome =
  | { ok: true; effect: 'write'; record: MemoryRecord }
  | { ok: true; effect: 'delete' }
  | { ok: true; effect: 'none'; warning: MemoryProblem }
  | { ok: false; error: MemoryProblem };

export interface MemoryWriteContext {
  agent: string;
  tick: number | null;
  limits?: MemoryLimits;
  nowMicros?: number;
}

export const memoryDir = (agentDir: string): string => join(agentDir, 'memory');

/** The file of a key. Callers check the key first (checkMemoryKey); this only joins. */
export const memoryFilePath = (agentDir: string, key: string): string =>
  join(memoryDir(agentDir), `${key}.json`);

/** The exact bytes LeMMing's `save_memory` writes for a record. */
export function memoryFileText(record: MemoryRecord): string {
  return pythonJsonDumps(Object.fromEntries(MEMORY_RECORD_KEYS.map((name) => [name, record[name]])), 2);
}

/** Reads a memory file leniently: legacy `timestamp` stands in for `timestamp_utc`, a missing key comes from the file name. */
export function parseMemoryText(
  text: string,
  file: string,
  keyFromName: string,
): Result<StoredMemory, Required<Problem>> {
  const read = readJsonObjectText(text, file);
  if (!read.ok) return read;
  const raw = read.value;
  const timestamp = raw.timestamp_utc ?? raw.timestamp;
  const known = new Set<string>([
    ...MEMORY_RECORD_KEYS,
    ...(raw.timestamp_utc === undefined ? ['timestamp'] : []),
  ]);
  const record: StoredMemoryRecord = {
    key: typeof raw.key === 'string' ? raw.key : keyFromName,
    value: raw.value === undefined ? null : raw.value,
    timestamp_utc: typeof timestamp === 'string' ? timestamp : null,
    agent: typeof raw.agent === 'string' ? raw.agent : null,
    operation: typeof raw.operation === 'string' ? raw.operation : null,
    tick: typeof raw.tick === 'number' && Number.isInteger(raw.tick) ? raw.tick : null,
    extra: Object.fromEntries(Object.entries(raw).filter(([name]) => !known.has(name))),
  };
  return { ok: true, value: { record, raw } };
}

export async function readMemory(
  agentDir: string,
  key: string,
  limits: MemoryLimits = DEFAULT_MEMORY_LIMITS,
): Promise<MemoryRead> {
  const file = memoryFilePath(agentDir, key);
  const keyProblem = checkMemoryKey(key, limits);
  if (keyProblem)
    return { ok: false, error: { file, field: '', line: 1, column: 1, message: keyProblem.message } };
  // Synchronous reads of small files, for speed: see engine/org/read-text-file.ts.
  const text = whenExists(() => readFileSync(file, 'utf8'));
  if (text === null) return { ok: true, value: null };
  return parseMemoryText(text, file, key);
}

/** Writes one key atomically and returns the record as written. */
export async function writeMemory(
  agentDir: string,
  fields: { key: string; value: unknown; agent: string; operation: string; tick: number | null },
  nowMicros: number = utcNowMicros(),
): Promise<MemoryRecord> {
  const record: MemoryRecord = { ...fields, timestamp_utc: pythonUtcIsoFormat(nowMicros) };
  await writeFileAtomic(memoryFilePath(agentDir, fields.key), memoryFileText(record));
  return record;
}

/** Removes a key's file; false when there was none. */
export async function deleteMemory(agentDir: string, key: string): Promise<boolean> {
  try {
    await rm(memoryFilePath(agentDir, key));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function countMemoryKeys(agentDir: string): Promise<number> {
  const entries = whenExists(() => readdirSync(memoryDir(agentDir), { withFileTypes: true })) ?? [];
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.json')).length;
}

/**
 * The memory shown in an agent's prompt: like LeMMing's `get_memory_context`, the first `maxItems`
 * `*.json` files in directory order (unsorted, as the file system returns them). It stops reading the
 * folder once it knows there are more, so a huge memory folder costs no more than a small one.
 */
export async function listMemory(agentDir: string, maxItems = 20): Promise<MemoryListing> {
  const listing: MemoryListing = { entries: [], truncated: false, problems: [], files: [] };
  const folder = whenExists(() => opendirSync(memoryDir(agentDir)));
  if (!folder) return listing;
  try {
    let seen = 0;
    for (let entry = folder.readSync(); entry !== null; entry = folder.readSync()) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
      if (seen === maxItems) {
        listing.truncated = true;
        break;
      }
      seen += 1;
      listing.files.push(entry.name);
      const key = entry.name.slice(0, -'.json'.length);
      const file = join(memoryDir(agentDir), entry.name);
      const text = readFileOrError(file);
      if (text instanceof Error) {
        listing.problems.push({
          file,
          field: '',
          line: 1,
          column: 1,
          message: `could not read the file: ${text.message}`,
        });
        continue;
      }
      const read = parseMemoryText(text, file, key);
      if (read.ok) listing.entries.push({ key, value: read.value.record.value });
      else listing.problems.push(read.error);
    }
  } finally {
    folder.closeSync();
  }
  return listing;
}

function readFileOrError(file: string): string | Error {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Applies one update to one key on disk: reads the stored value, combines it (memory-ops), checks the
 * limits, then writes or deletes atomically. Refusals come back as values; only I/O failures throw.
 */
export async function updateMemory(
  agentDir: string,
  update: MemoryUpdate,
  context: MemoryWriteContext,
): Promise<MemoryUpdateOutcome> {
  const limits = context.limits ?? DEFAULT_MEMORY_LIMITS;
  const keyProblem = checkMemoryKey(update.key, limits);
  if (keyProblem) return { ok: false, error: keyProblem };

  const stored = await readMemory(agentDir, update.key, limits);
  if (!stored.ok && (update.op === 'append' || update.op === 'merge')) {
    return {
      ok: false,
      error: {
        code: 'stored_value_unreadable',
        message: `Cannot ${update.op} into memory key '${update.key}': ${stored.error.message} (${stored.error.file}).`,
      },
    };
  }
  const exists = !stored.ok || stored.value !== null;
  const current = stored.ok && stored.value ? stored.value.record.value : exists ? null : undefined;
  const existingKeyCount = exists ? undefined : await countMemoryKeys(agentDir);

  const outcome = applyMemoryOp(current, update, { limits, existingKeyCount });
  if (!outcome.ok || outcome.effect === 'none') return outcome;
  if (outcome.effect === 'delete') {
    await deleteMemory(agentDir, update.key);
    return outcome;
  }
  const record = await writeMemory(
    agentDir,
    {
      key: update.key,
      value: outcome.value,
      agent: context.agent,
      operation: outcome.operation,
      tick: context.tick,
    },
    context.nowMicros,
  );
  return { ok: true, effect: 'write', record };
}
