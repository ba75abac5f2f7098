import { z } from 'zod';

export type ParsedArguments<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Validates a tool call's arguments against the tool's schema. The error names every problem and
 * the parameter it is in; sentences the schema spells out (the anchors' error texts) come through
 * word for word.
 */
export function parseArguments<S extends z.ZodType>(schema: S, args: unknown): ParsedArguments<z.output<S>> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: parsed.error.issues.map(describeIssue).join('; ') };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined'))
    return `missing required parameter '${where}'`;
  if (issue.code === 'unrecognized_keys')
    return `unknown parameter${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `'${key}'`).join(', ')}${where ? ` in '${where}'` : ''}`;
  const field = issue.path.at(-1);
  if (where === '' || (typeof field === 'string' && issue.message.includes(field))) return issue.message;
  return `${where}: ${issue.message}`;
}

/** The JSON schema the model is given, derived from the same zod schema the call is checked with. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete generated.$schema;
  return withoutSafeIntegerBounds(generated) as Record<string, unknown>;
}

/** zod writes JavaScript's safe-integer range into every integer; to a model that is only noise. */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node).filter(
    ([key, value]) =>
      !(key === 'maximum' && value === Number.MAX_SAFE_INTEGER) &&
      !(key === 'minimum' && value === Number.MIN_SAFE_INTEGER),
  );
  return Object.fromEntries(entries.map(([key, value]) => [key, withoutSafeIntegerBounds(value)]));
}
