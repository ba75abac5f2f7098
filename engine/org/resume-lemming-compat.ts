import type { Problem } from '../api/problem';
import { z } from 'zod';
import { problemsFromIssues, type LocatedJson } from '../files/json-problems';

/**
 * What LeMMing itself would do with a resume this app accepts. Its loader skips an agent without a
 * short_description or with a model given as text; its `validate` command (also run before `run`)
 * checks every resume against a stricter JSON Schema and refuses to start the whole org on any
 * error (reference/lemming-engine.md §2.1, §2.3). These are warnings here, never reasons to skip.
 */
export function lemmingCompatibilityWarnings(
  raw: unknown,
  file: string,
  located: LocatedJson | null,
): Problem[] {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const loaderWarnings: Problem[] = [];
  if (typeof record.short_description !== 'string' || record.short_description.trim() === '') {
    loaderWarnings.push({
      file,
      field: 'short_description',
      message: 'LeMMing skips this agent: it needs a short_description',
    });
  }
  if (typeof record.model === 'string') {
    loaderWarnings.push({
      file,
      field: 'model',
      message: 'LeMMing skips this agent: it needs model as an object, e.g. {"key": "gpt-4o"}',
    });
  }

  const strict = LemmingSchemaResume.safeParse(raw);
  const schemaWarnings = strict.success
    ? []
    : problemsFromIssues(
        strict.error.issues,
        file,
        raw,
        located,
        (message) => `LeMMing's validate rejects this and its run will not start: ${message}`,
      );
  const coveredFields = new Set(loaderWarnings.map((warning) => warning.field));
  return [...loaderWarnings, ...schemaWarnings.filter((warning) => !coveredFields.has(warning.field))];
}

const number = (what: string) => z.number({ error: `${what} must be a number (not text)` });
const whole = (what: string) => number(what).int(`${what} must be a whole number`);

/** LeMMing's lemming/schemas/resume_schema.json (draft-07), which coerces nothing. */
const LemmingSchemaResume = z.looseObject({
  name: z
    .string({ error: 'name must be text' })
    .regex(
      /^[a-z][a-z0-9_]*$/,
      'name must start with a lowercase letter and use only lowercase letters, digits and "_"',
    ),
  title: z.string({ error: 'title must be text' }).min(1, 'title must not be empty'),
  short_description: z
    .string({ error: 'short_description must be text' })
    .min(1, 'short_description must not be empty')
    .max(200, 'short_description must be at most 200 characters'),
  workflow_description: z.string({ error: 'workflow_description must be text' }).optional(),
  instructions: z.string({ error: 'instructions must be text' }).min(1, 'instructions must not be empty'),
  model: z.looseObject(
    {
      key: z.string({ error: 'model.key must be text' }),
      temperature: number('model.temperature')
        .min(0, 'model.temperature must be between 0 and 2')
        .max(2, 'model.temperature must be between 0 and 2')
        .optional(),
      max_tokens: whole('model.max_tokens').min(1, 'model.max_tokens must be at least 1').optional(),
    },
    { error: 'model must be an object' },
  ),
  permissions: z.looseObject({
    read_outboxes: z.array(z.string({ error: 'read_outboxes must hold text' }), {
      error: 'read_outboxes must be a list',
    }),
    tools: z.array(z.string({ error: 'tools must hold text' }), { error: 'tools must be a list' }),
  }),
  schedule: z.looseObject({
    run_every_n_ticks: whole('run_every_n_ticks').min(1, 'run_every_n_ticks must be at least 1'),
    phase_offset: whole('phase_offset'),
  }),
  credits: z
    .looseObject({ max_credits: number('credits.max_credits'), soft_cap: number('credits.soft_cap') })
    .optional(),
});
