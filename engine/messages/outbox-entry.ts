import type { Problem } from '../api/problem';
import { randomUUID } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { readJsonObjectText } from '../memory/json-object-file';
import { pythonJsonDumps, pythonUtcIsoFormat, utcNowMicros } from '../memory/python-format';
import type { HumanImportance } from '../api/credit-schemas';
import type { ResultWith } from '../api/result';

/**
 * LeMMing outbox entries: `agents/<sender>/outbox/{tick:08d}_{id}.json`. Entries this app writes have
 * exactly LeMMing's nine keys in LeMMing's order (LeMMing skips a file with any other top-level key);
 * entries read from disk are accepted leniently and keep every field they had.
 */

export const OUTBOX_ENTRY_KEYS = [
  'id',
  'tick',
  'agent',
  'kind',
  'payload',
  'tags',
  'created_at',
  'recipients',
  'meta',
] as const;

export const OutboxEntry = z.strictObject({
  /** uuid4 hex: 32 lower-case hex digits, no dashes. */
  id: z.string(),
  tick: z.number().int(),
  agent: z.string(),
  /** Free text; message, report, request, response and status are conventions, any other kind is as good. */
  kind: z.string(),
  /** `text` is what people and prompts see; every other field is free-form. */
  payload: z.record(z.string(), z.unknown()),
  tags: z.array(z.unknown()),
  /** ISO-8601 UTC with microseconds and `+00:00`, as Python's isoformat writes it. */
  created_at: z.string(),
  /** Informational in LeMMing: delivery never filters on it. */
  recipients: z.array(z.string()).nullable(),
  /** Where this app's extensions go, since a new top-level key would make LeMMing skip the file. */
  meta: z.record(z.string(), z.unknown()),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

/** An entry as read from disk: the nine fields normalized, plus every other top-level field it had. */
export const StoredOutboxEntry = z.object({ ...OutboxEntry.shape, extra: z.record(z.string(), z.unknown()) });
export type StoredOutboxEntry = z.infer<typeof StoredOutboxEntry>;

export interface NewOutboxEntryFields {
  agent: string;
  tick: number;
  kind?: string;
  payload?: Record<string, unknown>;
  tags?: unknown[];
  recipients?: string[] | null;
  meta?: Record<string, unknown>;
}

/** The entry under `value`; `raw` is the file's object as it was, `warnings` what was filled in or kept. */
export type OutboxEntryRead = ResultWith<
  StoredOutboxEntry,
  Required<Problem>,
  { raw: Record<string, unknown>; warnings: Required<Problem>[] }
>;

/** Ids and sender names that can safely be part of a file path. */
const NAME_TOKEN = /^[A-Za-z0-9_-]+$/;

export function newOutboxId(): string {
  return randomUUID().replaceAll('-', '');
}

/** Like LeMMing's `OutboxEntry.create`: the nine keys in order, `tags`/`meta` default to empty, `kind` to message. */
export function newOutboxEntry(
  fields: NewOutboxEntryFields,
  now?: Date,
  id: string = newOutboxId(),
): OutboxEntry {
  return {
    id,
    tick: fields.tick,
    agent: fields.agent,
    kind: fields.kind ?? 'message',
    payload: { ...fields.payload },
    tags: [...(fields.tags ?? [])],
    created_at: pythonUtcIsoFormat(now ? now.getTime() * 1000 : utcNowMicros()),
    recipients: fields.recipients ? [...fields.recipients] : null,
    meta: { ...fields.meta },
  };
}

/** A message from the person using the app, shaped like LeMMing's `send` (CLI and API) writes it. */
export function humanMessage(
  text: string,
  options: { tick: number; importance?: HumanImportance; target: string | null },
  now?: Date,
  id?: string,
): OutboxEntry {
  return newOutboxEntry(
    {
      agent: 'human',
      tick: options.tick,
      kind: 'message',
      payload: { text, importance: options.importance ?? 'normal', target: options.target },
      tags: ['human-originated'],
      recipients: null,
      meta: {},
    },
    now,
    id,
  );
}

/** The file text LeMMing writes: `json.dump(entry, indent=2)`, only the nine keys, no final newline. */
export function serializeEntry(entry: OutboxEntry): string {
  return pythonJsonDumps(Object.fromEntries(OUTBOX_ENTRY_KEYS.map((key) => [key, entry[key]])), 2);
}

/** Python's `format(tick, '08d')`: zero-padded to eight characters, sign included. */
export function formatTick(tick: number): string {
  return tick < 0 ? `-${String(-tick).padStart(7, '0')}` : String(tick).padStart(8, '0');
}

/**
 * `{tick:08d}_{id}.json`. Ticks past 99,999,999 simply get longer names, as in Python. Throws on a
 * non-integer tick or an id that is not a plain file-name token, since either would be a bug upstream.
 */
export function outboxFileName(entry: Pick<OutboxEntry, 'tick' | 'id'>): string {
  if (!Number.isSafeInteger(entry.tick))
    throw new RangeError(`outbox entry tick must be a whole number, got ${entry.tick}`);
  if (!NAME_TOKEN.test(entry.id))
    throw new RangeError(`outbox entry id ${JSON.stringify(entry.id)} cannot be part of a file name`);
  return `${formatTick(entry.tick)}_${entry.id}.json`;
}

/**
 * The tick and id a file name claims, or null for names LeMMing does not read as entries (LeMMing
 * only reads `*.json` names that start with a digit and have a tick before the first `_`).
 */
export function parseOutboxFileName(name: string): { tick: number; id: string } | null {
  const match = /^([0-9]+)_(.*)\.json$/s.exec(name);
  if (!match) return null;
  const tick = Number(match[1]);
  return Number.isSafeInteger(tick) ? { tick, id: match[2] ?? '' } : null;
}

/**
 * Reads an outbox file leniently, where LeMMing would silently skip it: `timestamp` stands in for
 * `created_at`; `meta`, `recipients` and `tags` may be missing; `kind` may be anything; unknown
 * top-level fields are kept in `extra`; a missing id or tick comes from the file name and a missing
 * sender from the folder. `raw` is the object exactly as it was in the file.
 */
export function readOutboxEntryText(text: string, file: string): OutboxEntryRead {
  const read = readJsonObjectText(text, file);
  if (!read.ok) return read;
  const raw = read.value;
  const warnings: Required<Problem>[] = [];
  const warn = (field: string, message: string) => warnings.push(read.problemAt(field, message));
  const fromName = parseOutboxFileName(basename(file));

  const id = typeof raw.id === 'string' && raw.id !== '' ? raw.id : fromName?.id;
  if (id === undefined)
    return {
      ok: false,
      error: read.problemAt('id', 'the entry has no id, and the file name does not give one'),
    };
  const tick = typeof raw.tick === 'number' && Number.isSafeInteger(raw.tick) ? raw.tick : fromName?.tick;
  if (tick === undefined)
    return {
      ok: false,
      error: read.problemAt(
        'tick',
        'the entry has no whole-number tick, and the file name does not give one',
      ),
    };
  const agent = typeof raw.agent === 'string' && raw.agent !== '' ? raw.agent : senderFromPath(file);
  if (agent === undefined)
    return { ok: false, error: read.problemAt('agent', 'the entry does not say which agent sent it') };

  const createdAt = raw.created_at ?? raw.timestamp;
  if (typeof createdAt !== 'string') warn('created_at', 'the entry has no created_at time');
  const usesLegacyTimestamp = raw.created_at === undefined && raw.timestamp !== undefined;
  const known = new Set<string>([...OUTBOX_ENTRY_KEYS, ...(usesLegacyTimestamp ? ['timestamp'] : [])]);

  const entry: StoredOutboxEntry = {
    id,
    tick,
    agent,
    kind: normalizeKind(raw.kind, warn),
    payload: normalizePayload(raw.payload, warn),
    tags: Array.isArray(raw.tags) ? raw.tags : listOrWarn(raw.tags, 'tags', warn),
    created_at: typeof createdAt === 'string' ? createdAt : '',
    recipients: normalizeRecipients(raw.recipients, warn),
    meta: isObject(raw.meta) ? raw.meta : objectOrWarn(raw.meta, 'meta', warn),
    extra: Object.fromEntries(Object.entries(raw).filter(([key]) => !known.has(key))),
  };
  return { ok: true, value: entry, raw, warnings };
}

type Warn = (field: string, message: string) => void;

function normalizeKind(kind: unknown, warn: Warn): string {
  if (kind === undefined || kind === null) return 'message';
  if (typeof kind === 'string') return kind;
  warn('kind', `kind is ${JSON.stringify(kind)}, not text; shown as text`);
  return JSON.stringify(kind);
}

function normalizePayload(payload: unknown, warn: Warn): Record<string, unknown> {
  if (isObject(payload)) return payload;
  if (typeof payload === 'string') return { text: payload };
  return objectOrWarn(payload, 'payload', warn);
}

function normalizeRecipients(recipients: unknown, warn: Warn): string[] | null {
  if (recipients === undefined || recipients === null) return null;
  if (typeof recipients === 'string') return [recipients];
  if (Array.isArray(recipients) && recipients.every((item) => typeof item === 'string')) return recipients;
  warn('recipients', 'recipients must be a list of agent names; ignored');
  return null;
}

function listOrWarn(value: unknown, field: string, warn: Warn): unknown[] {
  if (value !== undefined && value !== null) warn(field, `${field} must be a list; ignored`);
  return [];
}

function objectOrWarn(value: unknown, field: string, warn: Warn): Record<string, unknown> {
  if (value !== undefined && value !== null) warn(field, `${field} must be an object; ignored`);
  return {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `.../agents/<sender>/outbox/<file>` names the sender even when the entry does not. */
function senderFromPath(file: string): string | undefined {
  const folder = dirname(file);
  const sender = basename(dirname(folder));
  return basename(folder) === 'outbox' && NAME_TOKEN.test(sender) ? sender : undefined;
}
