import type { Problem } from '../api/problem';
import { join } from 'node:path';
import type { ResultWith } from '../api/result';
import type { z } from 'zod';
import { writeFileAtomic, writeFileAtomicUnflushed } from '../files/atomic-write';
import { editJsonText, type JsonEdit } from '../files/json-edit';
import { fileProblem, problemsFromIssues, syntaxProblem, type LocatedJson } from '../files/json-problems';
import { formatJsonDocument } from '../files/json-style';
import { locatePath, parseJsonTree } from '../files/json-tree';
import { jsonNestingProblem } from '../files/json-text';
import { readTextFile } from '../files/read-text-file';
import { runSerially } from '../files/serial-by-key';

/** One of LeMMing's JSON config files: where it is, its shape, and what a missing file means. */
export interface ConfigFileSpec<S extends z.ZodType> {
  /** Relative to the org folder. */
  file: string;
  schema: S;
  /** The document a missing file stands for, and the one a first write starts from. */
  defaultDocument: Record<string, unknown>;
  /** Things that are accepted here but that LeMMing would refuse. */
  warnings?: (raw: unknown, file: string, located: LocatedJson) => Problem[];
}

export type ConfigCheck<T> = ResultWith<T, Problem[], { warnings: Problem[] }>;

export type ConfigRead<T> = ResultWith<
  T,
  Problem[],
  { exists: boolean; text: string | null; warnings: Problem[] }
>;

/** Validates a config file's text; problems name the file, the field, and the line and column. */
export function checkConfigText<S extends z.ZodType>(
  text: string,
  spec: ConfigFileSpec<S>,
): ConfigCheck<z.output<S>> {
  const tooDeep = jsonNestingProblem(text);
  if (tooDeep) return { ok: false, error: [syntaxProblem(spec.file, tooDeep)] };
  const tree = parseJsonTree(text);
  if (!tree.ok) return { ok: false, error: [syntaxProblem(spec.file, tree.error)] };
  const located = { text, root: tree.root };
  const result = spec.schema.safeParse(tree.value);
  if (!result.success) {
    return { ok: false, error: problemsFromIssues(result.error.issues, spec.file, tree.value, located) };
  }
  return { ok: true, value: result.data, warnings: spec.warnings?.(tree.value, spec.file, located) ?? [] };
}

/** Reads a config file; a missing file reads as its default document. Never throws. */
export async function readConfigFile<S extends z.ZodType>(
  orgPath: string,
  spec: ConfigFileSpec<S>,
): Promise<ConfigRead<z.output<S>>> {
  const read = await readTextFile(join(orgPath, spec.file));
  if (!read.found && !read.missing) return { ok: false, error: [fileProblem(spec.file, read.message)] };
  const text = read.found ? read.text : null;
  const checked = checkConfigText(text ?? formatJsonDocument(spec.defaultDocument), spec);
  return checked.ok ? { ...checked, exists: read.found, text } : checked;
}

export type ConfigUpdate<T> = ResultWith<
  T,
  Problem[],
  { text: string; changed: boolean; warnings: Problem[] }
>;

export interface ConfigWriteOptions {
  /**
   * Flush the file to disk before returning (the default). The engine's own per-tick updates skip it
   * (see writeFileAtomicUnflushed): they are rewritten every tick from what SQLite holds.
   */
  flush?: boolean;
}

/**
 * Edits a config file in place, rewriting only the changed values so unknown keys and untouched
 * bytes stay. A missing file is created from the default document. If the result would not be valid,
 * nothing is written and the problems are returned.
 */
export async function updateConfigFile<S extends z.ZodType>(
  orgPath: string,
  spec: ConfigFileSpec<S>,
  edits: readonly JsonEdit[],
  options: ConfigWriteOptions = {},
): Promise<ConfigUpdate<z.output<S>>> {
  const path = join(orgPath, spec.file);
  return runSerially(path, async () => {
    const planned = await planConfigEdit(orgPath, spec, edits);
    if (!planned.ok || !planned.changed) return planned;
    try {
      if (options.flush ?? true) await writeFileAtomic(path, planned.text);
      else writeFileAtomicUnflushed(path, planned.text);
    } catch (error) {
      return { ok: false, error: [fileProblem(spec.file, `cannot write: ${(error as Error).message}`)] };
    }
    return planned;
  });
}

/**
 * The text a config file would have after `edits`, without writing it (`changed` says whether it must
 * be written): for a caller that journals the write with the commit it belongs to.
 */
export async function planConfigEdit<S extends z.ZodType>(
  orgPath: string,
  spec: ConfigFileSpec<S>,
  edits: readonly JsonEdit[],
): Promise<ConfigUpdate<z.output<S>>> {
  const read = await readTextFile(join(orgPath, spec.file));
  if (!read.found && !read.missing) return { ok: false, error: [fileProblem(spec.file, read.message)] };
  const before = read.found ? read.text : formatJsonDocument(spec.defaultDocument);
  const edited = editJsonText(before, edits);
  if (!edited.ok) {
    const { message, path: editPath, line, column } = edited.error;
    return {
      ok: false,
      error: [{ file: spec.file, field: editPath.map(String).join('.'), message, line, column }],
    };
  }
  const checked = checkConfigText(edited.value, spec);
  if (!checked.ok) return checked;
  return {
    ok: true,
    value: checked.value,
    text: edited.value,
    changed: edited.changed || !read.found,
    warnings: checked.warnings,
  };
}

/** One config file's read and edit, bound to its spec: what each `*-file.ts` module exports. */
export function boundConfigFile<S extends z.ZodType>(spec: ConfigFileSpec<S>) {
  return {
    read: (orgPath: string): Promise<ConfigRead<z.output<S>>> => readConfigFile(orgPath, spec),
    update: (
      orgPath: string,
      edits: readonly JsonEdit[],
      options?: ConfigWriteOptions,
    ): Promise<ConfigUpdate<z.output<S>>> => updateConfigFile(orgPath, spec, edits, options),
  };
}

/** Set edits for the fields of `patch` that are given, under `prefix`. */
export function patchEdits(patch: Record<string, unknown>, prefix: readonly string[] = []): JsonEdit[] {
  return Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ({ path: [...prefix, key], value }));
}

/** Warnings for keys LeMMing's schema forbids (`additionalProperties: false`) in the object at `where`. */
export function unknownKeyWarnings(
  value: unknown,
  known: readonly string[],
  file: string,
  located: LocatedJson,
  where: readonly string[] = [],
): Problem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({
      file,
      field: [...where, key].join('.'),
      message: `"${key}" is kept, but LeMMing's validate rejects unknown keys here and its run will not start`,
      ...locatePath(located.text, located.root, [...where, key]),
    }));
}
