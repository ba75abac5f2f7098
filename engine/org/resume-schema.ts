import { z } from 'zod';

/**
 * resume.json as LeMMing's loader accepts it, plus the legacy shapes and this app's additions
 * (DESIGN.md §2). Objects are loose: unknown keys are accepted here and kept by the raw document,
 * which is what gets written back.
 */

/** Same rule as LeMMing's `load_agent`: the name becomes a folder and an outbox owner. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

const nonEmptyString = (what: string) => z.string({ error: `${what} must be text` }).trim().min(1, `${what} must not be empty`);

/** LeMMing coerces with Python's float(): numbers and numeric strings pass. */
const floatLike = (what: string) =>
  z.union([z.number(), z.string().trim().regex(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/)], {
    error: `${what} must be a number`,
  }).transform(Number);

/** LeMMing coerces with Python's int(): integers, floats (truncated) and integer strings pass; "2.5" does not. */
const intLike = (what: string) =>
  z.union([z.number().finite(), z.string().trim().regex(/^[+-]?\d+$/)], {
    error: `${what} must be a whole number`,
  }).transform((value) => Math.trunc(Number(value)));

export const TOOLS_PROFILES = ['lemming', 'codex', 'gemini', 'model-agnostic', 'auto'] as const;

const ModelObject = z.looseObject({
  key: nonEmptyString('model.key'),
  temperature: floatLike('model.temperature').pipe(z.number().min(0).max(2)).nullish(),
  max_tokens: intLike('model.max_tokens').pipe(z.number().int().min(1)).nullish(),
});

/** Legacy resumes name the model as a plain string. */
const Model = z.union([ModelObject, nonEmptyString('model').transform((key) => ({ key }))], {
  error: 'model must be an object with a "key", or a model name',
});

const stringList = (what: string) => z.array(z.string(), { error: `${what} must be a list of names` });

const FileAccess = z.looseObject({
  allow_read: stringList('file_access.allow_read').optional(),
  allow_write: stringList('file_access.allow_write').optional(),
});

const Permissions = z.looseObject({
  read_outboxes: stringList('read_outboxes'),
  tools: stringList('tools'),
  send_outboxes: stringList('send_outboxes').optional(),
  file_access: FileAccess.optional(),
  tool_kinds: stringList('tool_kinds').optional(),
});

const Schedule = z.looseObject({
  run_every_n_ticks: intLike('run_every_n_ticks').pipe(z.number().int().min(1, 'run_every_n_ticks must be at least 1')),
  phase_offset: z.number({ error: 'phase_offset must be a whole number' }).int('phase_offset must be a whole number'),
});

const Credits = z.looseObject({
  max_credits: floatLike('max_credits'),
  soft_cap: floatLike('soft_cap'),
});

export const ResumeSchema = z.looseObject({
  schema_version: z.number().int().min(1).optional(),
  name: nonEmptyString('name').regex(AGENT_NAME_PATTERN, 'name may use only letters, digits, "_" and "-"'),
  title: nonEmptyString('title'),
  short_description: z.string().optional(),
  workflow_description: z.string().optional(),
  instructions: z.string({ error: 'instructions must be text' }),
  model: Model,
  permissions: Permissions,
  schedule: Schedule,
  credits: Credits.optional(),
  tools_profile: z.enum(TOOLS_PROFILES).optional(),
});

export type Resume = z.output<typeof ResumeSchema>;
