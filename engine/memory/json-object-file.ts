import type { Problem } from '../api/problem';
import type { ResultWith } from '../api/result';
import { parseJsonText } from '../files/json-text';
import { locatePath, parseJsonTree } from '../files/json-tree';
import { MAX_JSON_DEPTH } from '../files/json-text';
import { exceedsJsonDepth } from './python-format';

/** The object under `value`; `problemAt` locates a top-level field of it. */
export type JsonObjectRead = ResultWith<
  Record<string, unknown>,
  Required<Problem>,
  { problemAt: (field: string, message: string) => Required<Problem> }
>;

/**
 * Reads the text of a file that must hold one JSON object (an outbox entry, a memory file). Syntax
 * errors come back with line and column; `problemAt` locates a top-level field for later complaints.
 * Values nested deeper than the serializer can write are refused here, so whatever is read can be written.
 */
export function readJsonObjectText(text: string, file: string): JsonObjectRead {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, error: { file, field: '', ...parsed.error } };
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return {
      ok: false,
      error: { file, field: '', line: 1, column: 1, message: `expected a JSON object, found ${found}` },
    };
  }
  if (exceedsJsonDepth(value, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      error: { file, field: '', line: 1, column: 1, message: `nests deeper than ${MAX_JSON_DEPTH} levels` },
    };
  }
  const problemAt = (field: string, message: string): Required<Problem> => {
    const tree = parseJsonTree(text);
    const where = tree.ok ? locatePath(text, tree.root, [field]) : { line: 1, column: 1 };
    return { file, field, ...where, message };
  };
  return { ok: true, value: value as Record<string, unknown>, problemAt };
}
