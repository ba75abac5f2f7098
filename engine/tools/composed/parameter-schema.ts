import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { Result } from '../../api/result';

/**
 * Compiles and applies the JSON Schemas of composed-tool parameters. Strict about the schema
 * (unknown keywords are mistakes), strict about arguments (no type coercion), and it fills in
 * declared defaults. `format` is an annotation here: it is not checked.
 */
const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  coerceTypes: false,
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  validateFormats: false,
  addUsedSchema: false,
});

/** The compiled schema, or what is wrong with it. */
export type SchemaCompile = Result<ValidateFunction, string>;

const compiled = new WeakMap<object, SchemaCompile>();

/** Compiles once per schema object; a schema ajv cannot compile comes back as a message. */
export function compileParameterSchema(schema: Record<string, unknown>): SchemaCompile {
  const known = compiled.get(schema);
  if (known) return known;
  let result: SchemaCompile;
  try {
    result = { ok: true, value: ajv.compile(schema) };
  } catch (error) {
    result = { ok: false, error: describeCompileError(error) };
  }
  compiled.set(schema, result);
  return result;
}

function describeCompileError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message
    .replace(/^schema is invalid: /, '')
    .replace(/\bdata\//g, '')
    .replace(/^strict mode: /, '');
}

/** The arguments with defaults filled in, or what is wrong with them. */
export type ArgumentCheck = Result<Record<string, unknown>, string>;

/**
 * Checks a model's arguments against the tool's schema and returns a copy with defaults filled in.
 * A missing or null argument object counts as `{}` (models send either for tools without arguments).
 */
export function checkArguments(validate: ValidateFunction, args: unknown): ArgumentCheck {
  const given = args === undefined || args === null ? {} : args;
  if (typeof given !== 'object' || Array.isArray(given))
    return { ok: false, error: 'the arguments must be a JSON object' };
  const copy = structuredClone(given) as Record<string, unknown>;
  if (validate(copy)) return { ok: true, value: copy };
  return {
    ok: false,
    error:
      (validate.errors ?? []).map(describeArgumentError).join('; ') ||
      'the arguments do not match the schema',
  };
}

/** `a.b[2]` from ajv's JSON pointer `/a/b/2`. */
function argumentName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name === '' ? part : `${name}.${part}`),
      '',
    );
}

function describeArgumentError(error: ErrorObject): string {
  const name = argumentName(error.instancePath);
  const where = name === '' ? '' : `argument '${name}' `;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return name === ''
        ? `missing required argument '${String(params.missingProperty)}'`
        : `${where}is missing its required field '${String(params.missingProperty)}'`;
    case 'additionalProperties':
      return name === ''
        ? `unknown argument '${String(params.additionalProperty)}'`
        : `${where}has an unknown field '${String(params.additionalProperty)}'`;
    case 'enum':
      return `${where || 'the arguments '}must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'type':
      return name === ''
        ? 'the arguments must be a JSON object'
        : `${where}must be ${article(String(params.type))}`;
    default:
      return `${where || 'the arguments '}${error.message ?? 'are not valid'}`;
  }
}

function article(type: string): string {
  const names: Record<string, string> = {
    string: 'text (a string)',
    number: 'a number',
    integer: 'a whole number (integer)',
    boolean: 'true or false (a boolean)',
    object: 'an object',
    array: 'a list (array)',
    null: 'null',
  };
  return type
    .split(',')
    .map((part) => names[part] ?? part)
    .join(' or ');
}
