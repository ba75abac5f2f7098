import { z } from 'zod';
import { TOOLS_PROFILES } from '../api/agent-schemas';
import { parseClockSchedule } from '../api/clock-schedule';

/**
 * resume.json as LeMMing's loader accepts it, plus the legacy shapes and this app's additions
 * (docs/ARCHITECTURE.md, “The org folder”). Objects are loose: unknown keys are accepted here and kept by the raw document,
 * which is what gets written back.
 */

/** Same rule as LeMMing's `load_agent`: the name becomes a folder and an outbox owner. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Checked, not trimmed: the value is kept exactly as written, and only blank text is refused. */
const nonEmptyString = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .refine((value) => value.trim().length > 0, `${what} must not be empty`);

const PYTHON_FLOAT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const PYTHON_INT = /^\s*[+-]?\d+\s*$/;

/** LeMMing coerces with Python's float(): numbers and numeric strings pass. */
const floatLike = (what: string) =>
  z
    .union([z.number(), z.string().regex(PYTHON_FLOAT, `${what} must be a number`)], {
      error: `${what} must be a number`,
    })
    .transform(Number);

/** LeMMing coerces with Python's int(): numbers (truncated) and whole-number strings pass; "2.5" does not. */
const intLike = (what: string) =>
  z
    .union([z.number(), z.string().regex(PYTHON_INT, `${what} must be a whole number`)], {
      error: `${what} must be a whole number`,
    })
    .transform((value) => Math.trunc(Number(value)));

const ModelObject = z.looseObject(
  {
    key: nonEmptyString('model.key'),
    temperature: floatLike('model.temperature').nullish(),
    max_tokens: intLike('model.max_tokens').nullish(),
  },
  { error: 'model must be an object with a "key", or a model name' },
);

/** Legacy resumes name the model as a plain string; it reads as `{ "key": <string> }`. */
const Model = z.preprocess((value) => (typeof value === 'string' ? { key: value } : value), ModelObject);

const stringList = (what: string) =>
  z.array(z.string({ error: `each entry of ${what} must be text` }), {
    error: `${what} must be a list of names`,
  });

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
  run_every_n_ticks: intLike('run_every_n_ticks').pipe(
    z.number().int().min(1, 'run_every_n_ticks must be at least 1'),
  ),
  phase_offset: z
    .number({ error: 'phase_offset must be a whole number' })
    .int('phase_offset must be a whole number'),
  /**
   * This app's wall-clock schedule (cron's five fields, local time), which LeMMing ignores: with it the
   * agent runs at the first tick at or after each due time instead of by the tick fields.
   */
  clock: z
    .string({ error: 'schedule.clock must be text, e.g. "0 9 * * 1-5"' })
    .superRefine((cron, context) => {
      const parsed = parseClockSchedule(cron);
      if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error });
    })
    .optional(),
});

const Credits = z.looseObject({
  max_credits: floatLike('max_credits'),
  soft_cap: floatLike('soft_cap'),
});

export const ResumeSchema = z.looseObject({
  schema_version: z
    .number({ error: 'schema_version must be a whole number' })
    .int('schema_version must be a whole number')
    .min(1, 'schema_version must be at least 1')
    .optional(),
  name: nonEmptyString('name').regex(AGENT_NAME_PATTERN, 'name may use only letters, digits, "_" and "-"'),
  title: nonEmptyString('title'),
  short_description: z.string({ error: 'short_description must be text' }).optional(),
  workflow_description: z.string({ error: 'workflow_description must be text' }).nullish(),
  instructions: z.string({ error: 'instructions must be text' }),
  model: Model,
  permissions: Permissions,
  schedule: Schedule,
  credits: Credits.optional(),
  /** The person switched the agent off in this app: it takes no turns. LeMMing ignores the field. */
  switched_off: z.boolean({ error: 'switched_off must be true or false' }).optional(),
  tools_profile: z
    .enum(TOOLS_PROFILES, { error: `tools_profile must be one of ${TOOLS_PROFILES.join(', ')}` })
    .optional(),
});

export type Resume = z.output<typeof ResumeSchema>;
