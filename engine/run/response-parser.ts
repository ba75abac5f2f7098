import { z } from 'zod';
import { MEMORY_KEY_PATTERN, MemoryOpName, MemoryUpdate } from '../memory/memory-ops';
import { MAX_JSON_DEPTH } from '../files/json-text';
import { exceedsJsonDepth } from '../memory/python-format';

/**
 * Reads a model's reply into LeMMing's response contract (`outbox_entries`, `tool_calls`,
 * `memory_updates`, `notes`). It accepts everything LeMMing accepts and more (JSON inside prose,
 * trailing commas, a single object where a list belongs), never throws, and reports every deviation
 * as a warning value. Whatever the model wrote that the contract does not use is kept in `extra`.
 */

export const ContractWarningCode = z.enum([
  'empty_response',
  'not_json',
  'not_an_object',
  'too_deeply_nested',
  'json_found_in_text',
  'json_repaired',
  'unknown_field',
  'field_not_a_list',
  'notes_not_text',
  'entry_not_an_object',
  'kind_not_text',
  'payload_not_an_object',
  'tags_not_a_list',
  'meta_not_an_object',
  'recipients_invalid',
  'tool_call_not_an_object',
  'tool_name_missing',
  'tool_args_not_an_object',
  'tool_args_agent_path',
  'memory_update_not_an_object',
  'memory_key_missing',
  'memory_key_invalid',
  'memory_op_unknown',
  'parser_failed',
]);
export type ContractWarningCode = z.infer<typeof ContractWarningCode>;

export const SNIPPET_LIMIT = 200;

export const ContractWarning = z.object({
  code: ContractWarningCode,
  message: z.string(),
  snippet: z.string().max(SNIPPET_LIMIT).optional(),
});
export type ContractWarning = z.infer<typeof ContractWarning>;

const JsonRecord = z.record(z.string(), z.unknown());

export const ParsedOutboxEntry = z.object({
  kind: z.string(),
  payload: JsonRecord,
  tags: z.array(z.unknown()),
  meta: JsonRecord,
  /** From `to`, else `recipients`, else `meta.to`; null when none was given. */
  recipients: z.array(z.string()).nullable(),
  extra: JsonRecord,
});
export type ParsedOutboxEntry = z.infer<typeof ParsedOutboxEntry>;

export const ParsedToolCall = z.object({ tool: z.string(), args: JsonRecord, extra: JsonRecord });
export type ParsedToolCall = z.infer<typeof ParsedToolCall>;

export const ParsedMemoryUpdate = MemoryUpdate.extend({ extra: JsonRecord });
export type ParsedMemoryUpdate = z.infer<typeof ParsedMemoryUpdate>;

export const ParsedResponse = z.object({
  outboxEntries: z.array(ParsedOutboxEntry),
  toolCalls: z.array(ParsedToolCall),
  memoryUpdates: z.array(ParsedMemoryUpdate),
  notes: z.string(),
  warnings: z.array(ContractWarning),
  /** Top-level fields outside the contract, as the model wrote them. */
  extra: JsonRecord,
});
export type ParsedResponse = z.infer<typeof ParsedResponse>;

const CONTRACT_FIELDS = ['outbox_entries', 'tool_calls', 'memory_updates', 'notes'];
const ENTRY_FIELDS = new Set(['kind', 'payload', 'tags', 'meta', 'to', 'recipients']);
/** Beyond this the search for an object inside prose stops: a reply that long is not a contract reply. */
const MAX_SCAN_CHARS = 1_000_000;
const MAX_CANDIDATES = 32;

type Json = Record<string, unknown>;
type Warn = (code: ContractWarningCode, message: string, about?: unknown) => void;

/** Parses a model's text reply. Never throws. */
export function parseModelResponse(text: string): ParsedResponse {
  const warnings: ContractWarning[] = [];
  try {
    const body = text.replace(/^\uFEFF/, '').trim();
    if (body === '')
      return emptyResponse(warnings, { code: 'empty_response', message: 'the model returned no text' });
    const found = extractJson(body);
    if (!found.ok)
      return emptyResponse(warnings, {
        code: 'not_json',
        message: `the reply is not JSON (${found.error})`,
        snippet: snippet(body),
      });
    if (found.where === 'text')
      warnings.push({
        code: 'json_found_in_text',
        message: 'the JSON object was surrounded by other text',
        snippet: snippet(body),
      });
    if (found.repaired)
      warnings.push({
        code: 'json_repaired',
        message: 'the JSON had trailing commas; they were removed',
        snippet: snippet(body),
      });
    return interpret(found.value, warnings);
  } catch (error) {
    return emptyResponse(warnings, {
      code: 'parser_failed',
      message: `the reply could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

/** Interprets an already-parsed reply (from a provider's JSON mode). Never throws. */
export function interpretResponseValue(value: unknown): ParsedResponse {
  const warnings: ContractWarning[] = [];
  try {
    return interpret(value, warnings);
  } catch (error) {
    return emptyResponse(warnings, {
      code: 'parser_failed',
      message: `the reply could not be read: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}

function emptyResponse(warnings: ContractWarning[], warning?: ContractWarning): ParsedResponse {
  return {
    outboxEntries: [],
    toolCalls: [],
    memoryUpdates: [],
    notes: '',
    warnings: warning ? [...warnings, warning] : warnings,
    extra: {},
  };
}

function interpret(value: unknown, warnings: ContractWarning[]): ParsedResponse {
  if (!isObject(value)) {
    return emptyResponse(warnings, {
      code: 'not_an_object',
      message: `expected a JSON object, got ${describe(value)}`,
      snippet: snippetOf(value),
    });
  }
  if (exceedsJsonDepth(value, MAX_JSON_DEPTH)) {
    return emptyResponse(warnings, {
      code: 'too_deeply_nested',
      message: `the reply nests deeper than ${MAX_JSON_DEPTH} levels`,
    });
  }
  const warn: Warn = (code, message, about) =>
    warnings.push(about === undefined ? { code, message } : { code, message, snippet: snippetOf(about) });

  const extra = pick(value, (key) => !CONTRACT_FIELDS.includes(key));
  const unknown = Object.keys(extra);
  if (unknown.length > 0)
    warn(
      'unknown_field',
      `fields outside the contract were kept but not acted on: ${unknown.join(', ')}`,
      extra,
    );

  return {
    outboxEntries: listField(value, 'outbox_entries', warn).flatMap((item) => outboxEntry(item, warn)),
    toolCalls: listField(value, 'tool_calls', warn).flatMap((item) => toolCall(item, warn)),
    memoryUpdates: listField(value, 'memory_updates', warn).flatMap((item) => memoryUpdate(item, warn)),
    notes: notesOf(value.notes, warn),
    warnings,
    extra,
  };
}

function listField(response: Json, field: string, warn: Warn): unknown[] {
  const value = response[field];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (isObject(value)) {
    warn(
      'field_not_a_list',
      `'${field}' should be a list; the single object was used as a list of one`,
      value,
    );
    return [value];
  }
  warn('field_not_a_list', `'${field}' must be a list, got ${describe(value)}; ignored`, value);
  return [];
}

function notesOf(notes: unknown, warn: Warn): string {
  if (notes === undefined || notes === null) return '';
  if (typeof notes === 'string') return notes;
  warn('notes_not_text', `'notes' should be text, got ${describe(notes)}; converted`, notes);
  return typeof notes === 'object' ? JSON.stringify(notes) : String(notes);
}

function outboxEntry(item: unknown, warn: Warn): ParsedOutboxEntry[] {
  if (!isObject(item)) {
    warn('entry_not_an_object', `an outbox entry must be an object, got ${describe(item)}; skipped`, item);
    return [];
  }
  const meta =
    item.meta === undefined || item.meta === null
      ? {}
      : isObject(item.meta)
        ? item.meta
        : wrongShape(
            warn,
            'meta_not_an_object',
            `an outbox entry's 'meta' must be an object; ignored`,
            item,
            {},
          );
  return [
    {
      kind: kindOf(item.kind, warn, item),
      payload: payloadOf(item.payload, warn, item),
      tags: tagsOf(item.tags, warn, item),
      meta,
      recipients: recipientsOf(item, meta, warn),
      extra: pick(item, (key) => !ENTRY_FIELDS.has(key)),
    },
  ];
}

function kindOf(kind: unknown, warn: Warn, item: Json): string {
  if (kind === undefined || kind === null) return 'message';
  if (typeof kind === 'string') return kind;
  warn('kind_not_text', `an outbox entry's 'kind' should be text, got ${describe(kind)}; converted`, item);
  return JSON.stringify(kind);
}

function payloadOf(payload: unknown, warn: Warn, item: Json): Json {
  if (payload === undefined || payload === null) return {};
  if (isObject(payload)) return payload;
  if (typeof payload === 'string') {
    warn(
      'payload_not_an_object',
      `an outbox entry's 'payload' should be an object; the text was used as payload.text`,
      item,
    );
    return { text: payload };
  }
  return wrongShape(
    warn,
    'payload_not_an_object',
    `an outbox entry's 'payload' must be an object, got ${describe(payload)}; ignored`,
    item,
    {},
  );
}

function tagsOf(tags: unknown, warn: Warn, item: Json): unknown[] {
  if (tags === undefined || tags === null) return [];
  if (Array.isArray(tags)) return tags;
  if (typeof tags === 'string') {
    warn('tags_not_a_list', `an outbox entry's 'tags' should be a list; the text was used as one tag`, item);
    return [tags];
  }
  return wrongShape(
    warn,
    'tags_not_a_list',
    `an outbox entry's 'tags' must be a list, got ${describe(tags)}; ignored`,
    item,
    [],
  );
}

/** LeMMing reads `to`, then `meta.to`; `recipients` (the name on disk) is accepted in between. */
function recipientsOf(item: Json, meta: Json, warn: Warn): string[] | null {
  const to = 'to' in item ? item.to : 'recipients' in item ? item.recipients : meta.to;
  if (to === undefined || to === null) return null;
  if (typeof to === 'string') return [to];
  if (Array.isArray(to) && to.every((name) => typeof name === 'string')) return to;
  warn(
    'recipients_invalid',
    `an outbox entry's 'to' must be an agent name or a list of names; ignored`,
    item,
  );
  return null;
}

function toolCall(item: unknown, warn: Warn): ParsedToolCall[] {
  if (!isObject(item)) {
    warn(
      'tool_call_not_an_object',
      `a tool call must be an object like {"tool": ..., "args": {...}}, got ${describe(item)}; skipped`,
      item,
    );
    return [];
  }
  const nameField = 'tool' in item ? 'tool' : 'name';
  const tool = item[nameField];
  if (typeof tool !== 'string' || tool.trim() === '') {
    warn('tool_name_missing', `a tool call needs the tool's name in 'tool'; skipped`, item);
    return [];
  }
  const argsField = 'args' in item ? 'args' : 'arguments';
  const args = argsOf(item[argsField]);
  if (args === null) {
    warn(
      'tool_args_not_an_object',
      `the arguments of tool '${tool}' must be an object; the call was skipped`,
      item,
    );
    return [];
  }
  if (Object.hasOwn(args, 'agent_path')) {
    warn(
      'tool_args_agent_path',
      `tool '${tool}' was given 'agent_path', which only the engine sets; the call was skipped`,
      item,
    );
    return [];
  }
  return [{ tool, args, extra: pick(item, (key) => key !== nameField && key !== argsField) }];
}

/** Arguments as an object; OpenAI-style models send them as a JSON string. Null when they are unusable. */
function argsOf(args: unknown): Json | null {
  if (args === undefined || args === null) return {};
  if (isObject(args)) return args;
  if (typeof args !== 'string') return null;
  const parsed = tryParse(args);
  return parsed.ok && isObject(parsed.value) && !exceedsJsonDepth(parsed.value, MAX_JSON_DEPTH)
    ? parsed.value
    : null;
}

function memoryUpdate(item: unknown, warn: Warn): ParsedMemoryUpdate[] {
  if (!isObject(item)) {
    warn(
      'memory_update_not_an_object',
      `a memory update must be an object like {"key": ..., "value": ...}, got ${describe(item)}; skipped`,
      item,
    );
    return [];
  }
  if (!('key' in item) || item.key === null || item.key === '') {
    warn('memory_key_missing', `a memory update needs a 'key'; skipped`, item);
    return [];
  }
  if (typeof item.key !== 'string' || !MEMORY_KEY_PATTERN.test(item.key)) {
    warn(
      'memory_key_invalid',
      `memory key ${JSON.stringify(item.key)} may use only letters, digits, '_' and '-'; skipped`,
      item,
    );
    return [];
  }
  const op =
    item.op === undefined || item.op === null
      ? 'set'
      : typeof item.op === 'string'
        ? item.op.trim().toLowerCase()
        : item.op;
  const known = MemoryOpName.safeParse(op);
  if (!known.success) {
    warn(
      'memory_op_unknown',
      `memory op ${JSON.stringify(item.op)} is not one of set, append, merge, delete; skipped`,
      item,
    );
    return [];
  }
  const value = known.data === 'delete' || item.value === undefined ? null : item.value;
  return [
    {
      key: item.key,
      op: known.data,
      value,
      extra: pick(item, (key) => key !== 'key' && key !== 'op' && key !== 'value'),
    },
  ];
}

function wrongShape<T>(warn: Warn, code: ContractWarningCode, message: string, item: Json, fallback: T): T {
  warn(code, message, item);
  return fallback;
}

type Extracted =
  | { ok: true; value: unknown; where: 'whole' | 'fence' | 'text'; repaired: boolean }
  | { ok: false; error: string };

/** The reply as JSON: the whole text, else a leading code fence (as LeMMing reads it), else the first object in the text. */
function extractJson(body: string): Extracted {
  const whole = tryParse(body);
  if (whole.ok) return { ...whole, where: 'whole' };
  if (body.startsWith('```')) {
    const fenced = tryParse(firstFenceBody(body));
    if (fenced.ok) return { ...fenced, where: 'fence' };
  }
  const embedded = firstObjectInText(body);
  return embedded ? { ...embedded, where: 'text' } : { ok: false, error: whole.error };
}

function tryParse(
  text: string,
): { ok: true; value: unknown; repaired: boolean } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text), repaired: false };
  } catch (error) {
    const repaired = withoutTrailingCommas(text);
    if (repaired !== text) {
      try {
        return { ok: true, value: JSON.parse(repaired), repaired: true };
      } catch {
        // The repair did not help; report the original error, which points at the real problem.
      }
    }
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The first fenced block, with an optional language tag and CRLF line ends; an unclosed fence runs to the end. */
function firstFenceBody(text: string): string {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const open = lines.findIndex((line) => line.startsWith('```'));
  const rest = lines.slice(open + 1);
  const close = rest.findIndex((line) => line.startsWith('```'));
  return (close === -1 ? rest : rest.slice(0, close)).join('\n');
}

/**
 * The first `{...}` in the text that parses, preferring one that has a contract field (prose sometimes
 * quotes a small example object before the real reply).
 */
function firstObjectInText(text: string): { ok: true; value: unknown; repaired: boolean } | null {
  const scanned = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  let fallback: { ok: true; value: unknown; repaired: boolean } | null = null;
  let from = 0;
  for (let attempt = 0; attempt < MAX_CANDIDATES; attempt += 1) {
    const start = scanned.indexOf('{', from);
    if (start === -1) break;
    const end = matchingBrace(scanned, start);
    if (end === -1) break;
    const parsed = tryParse(scanned.slice(start, end + 1));
    if (parsed.ok && isObject(parsed.value)) {
      const value = parsed.value;
      if (CONTRACT_FIELDS.some((field) => field in value)) return parsed;
      fallback ??= parsed;
      from = end + 1;
    } else {
      from = start + 1;
    }
  }
  return fallback;
}

/** Index of the `}` closing the `{` at `start`, skipping braces inside strings; -1 when it never closes. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth += 1;
    else if (char === '}') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** Removes commas that directly precede `}` or `]` outside strings, the commonest near-JSON models write. */
function withoutTrailingCommas(text: string): string {
  let result = '';
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (inString) {
      result += char;
      if (char === '\\') {
        result += text[index + 1] ?? '';
        index += 1;
      } else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    if (char === ',' && /^\s*[}\]]/.test(text.slice(index + 1, index + 200))) continue;
    result += char;
  }
  return result;
}

function pick(object: Json, keep: (key: string) => boolean): Json {
  return Object.fromEntries(Object.entries(object).filter(([key]) => keep(key)));
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function snippetOf(value: unknown): string {
  if (typeof value === 'string') return snippet(value);
  if (exceedsJsonDepth(value, MAX_JSON_DEPTH)) return '(nested too deeply to show)';
  return snippet(JSON.stringify(value) ?? String(value));
}

/** At most SNIPPET_LIMIT characters on one line, never ending inside a surrogate pair. */
function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  if (oneLine.length <= SNIPPET_LIMIT) return oneLine;
  const cut = oneLine.slice(0, SNIPPET_LIMIT);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
