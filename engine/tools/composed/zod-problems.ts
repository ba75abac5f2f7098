import type { z } from 'zod';
import type { FieldPath, FieldProblem } from './problem';

/** Turns zod issues into problems that say, in words, what is wrong with which field. */
export function zodProblems(
  error: z.ZodError,
  input: unknown,
  schema: z.ZodType,
  base: FieldPath,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of error.issues) {
    const path = [...base, ...(issue.path as (string | number)[])];
    const relative = issue.path as (string | number)[];
    switch (issue.code) {
      case 'unrecognized_keys': {
        const known = knownFields(schema, relative);
        for (const key of issue.keys)
          problems.push({ path: [...path, key], message: unknownFieldMessage(key, known) });
        break;
      }
      case 'invalid_type':
        problems.push({
          path,
          message:
            valueAt(input, relative) === undefined
              ? requiredMessage(issue.message)
              : wrongTypeMessage(issue.message, valueAt(input, relative)),
        });
        break;
      case 'invalid_key': {
        const inner = issue.issues[0];
        problems.push({
          path,
          message: inner
            ? `the name ${JSON.stringify(String(relative.at(-1)))} ${inner.message}`
            : issue.message,
        });
        break;
      }
      default:
        problems.push({ path, message: issue.message });
    }
  }
  return problems;
}

const GENERIC = /^Invalid input/;

function requiredMessage(message: string): string {
  return GENERIC.test(message) ? 'is required' : `is required: ${message.replace(/^must (?:be )?/, '')}`;
}

function wrongTypeMessage(message: string, value: unknown): string {
  const given = `(found ${describeValue(value)})`;
  return GENERIC.test(message) ? `has the wrong type ${given}` : `${message} ${given}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'nothing (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return 'text';
  return `a ${typeof value}`;
}

function unknownFieldMessage(key: string, known: readonly string[]): string {
  const suggestion = closest(key, known);
  const hint = suggestion
    ? `; did you mean ${suggestion}?`
    : known.length > 0
      ? `; known fields here: ${known.join(', ')}`
      : '';
  return `unknown field ${JSON.stringify(key)}${hint}`;
}

function valueAt(input: unknown, path: readonly (string | number)[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

interface SchemaDef {
  type?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): SchemaDef => (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;

/** The field names the schema allows at a path, for "did you mean". */
function knownFields(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (const key of [...path, null]) {
    current = unwrap(current);
    if (!current) return [];
    const def = defOf(current);
    if (key === null) return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
    if (def.type === 'object') current = def.shape?.[String(key)];
    else if (def.type === 'record') current = def.valueType;
    else if (def.type === 'array') current = def.element;
    else return [];
  }
  return [];
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let current = schema;
  for (let depth = 0; current && depth < 8; depth += 1) {
    const def = defOf(current);
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe' && def.in) current = def.in;
    else return current;
  }
  return current;
}

/** The known name within edit distance 2 of `key`, if exactly one is that close. */
function closest(key: string, known: readonly string[]): string | null {
  const near = known.filter((candidate) => editDistance(key.toLowerCase(), candidate.toLowerCase()) <= 2);
  return near.length === 1 ? (near[0] ?? null) : null;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
