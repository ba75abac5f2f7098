import { z } from 'zod';
import { AgentState } from './agent-state-schemas';
import { CreditsInput, ScheduleInput } from './org-schemas';
import { AgentProblem } from './schemas';
import { NextDue } from './schedule-schemas';

export const TOOLS_PROFILES = ['lemming', 'codex', 'gemini', 'model-agnostic', 'auto'] as const;
export const TOOL_KINDS = ['file', 'shell', 'network', 'memory', 'org', 'mcp'] as const;
export const ToolKind = z.enum(TOOL_KINDS);
export type ToolKind = z.infer<typeof ToolKind>;

/** The fields of resume.json the agent form edits, as the engine reads them (legacy shapes normalized). */
export const ResumeView = z.object({
  name: z.string(),
  title: z.string(),
  short_description: z.string().nullable(),
  workflow_description: z.string().nullable(),
  instructions: z.string(),
  model: z.object({ key: z.string(), temperature: z.number().nullable(), max_tokens: z.int().nullable() }),
  permissions: z.object({
    read_outboxes: z.array(z.string()),
    tools: z.array(z.string()),
    send_outboxes: z.array(z.string()).nullable(),
    file_access: z
      .object({ allow_read: z.array(z.string()).nullable(), allow_write: z.array(z.string()).nullable() })
      .nullable(),
    tool_kinds: z.array(z.string()).nullable(),
  }),
  schedule: z.object({ run_every_n_ticks: z.int(), phase_offset: z.int(), clock: z.string().nullable() }),
  credits: z.object({ max_credits: z.number(), soft_cap: z.number() }).nullable(),
  tools_profile: z.enum(TOOLS_PROFILES).nullable(),
  switched_off: z.boolean(),
});
export type ResumeView = z.infer<typeof ResumeView>;

export const AgentDetail = z.object({
  folder: z.string(),
  name: z.string(),
  /** The resume file, relative to the org. */
  file: z.string(),
  valid: z.boolean(),
  problems: z.array(AgentProblem),
  warnings: z.array(AgentProblem),
  /** Null when the resume cannot be read as one; `text` and `problems` then say why. */
  resume: ResumeView.nullable(),
  /** Fields the form does not edit (dotted paths); every save keeps them as they are. */
  otherFields: z.array(z.string()),
  /** The file's text exactly, for the raw view and for repairing an invalid resume. */
  text: z.string().nullable(),
  state: AgentState,
  balance: z.number().nullable(),
  /** When it next takes its turn; null when its resume cannot be used. */
  nextDue: NextDue.nullable(),
});
export type AgentDetail = z.infer<typeof AgentDetail>;

const names = (what: string) =>
  z.array(z.string().min(1, `an entry of ${what} is empty`).max(4096)).max(1000);

/**
 * A change to a resume: only the fields present change, `null` removes an optional field. Everything
 * else in the file, unknown fields included, stays byte for byte.
 */
export const ResumePatch = z
  .object({
    title: z.string().trim().min(1, 'title must not be empty').max(200),
    short_description: z.string().max(10_000).nullable(),
    workflow_description: z.string().max(100_000).nullable(),
    instructions: z.string().max(100_000),
    model: z
      .object({
        key: z.string().trim().min(1, 'model.key must not be empty').max(200),
        temperature: z.number().finite().min(0).max(2).nullable(),
        max_tokens: z.int().positive().max(10_000_000).nullable(),
      })
      .partial()
      .strict(),
    permissions: z
      .object({
        read_outboxes: names('read_outboxes'),
        tools: names('tools'),
        send_outboxes: names('send_outboxes').nullable(),
        file_access: z
          .object({
            allow_read: names('allow_read').nullable(),
            allow_write: names('allow_write').nullable(),
          })
          .partial()
          .strict()
          .nullable(),
        tool_kinds: z.array(ToolKind).max(TOOL_KINDS.length).nullable(),
      })
      .partial()
      .strict(),
    schedule: ScheduleInput.extend({
      /** A clock schedule (cron's five fields); null removes it and the agent runs by ticks again. */
      clock: z.string().trim().min(1, 'schedule.clock must not be empty').max(200).nullable(),
    })
      .partial()
      .strict(),
    credits: CreditsInput.nullable(),
    tools_profile: z.enum(TOOLS_PROFILES).nullable(),
    /** The person's switch: true switches the agent off, false on (the field is removed). */
    switched_off: z.boolean(),
  })
  .partial()
  .strict();
export type ResumePatch = z.infer<typeof ResumePatch>;

export const AgentUpdateInput = z.object({ agent: z.string().min(1).max(256), patch: ResumePatch }).strict();

export const SchedulePreviewInput = z
  .object({
    schedule: ScheduleInput,
    /** The first tick to consider; the org's next tick when absent (1 without an open org). */
    fromTick: z.int().nonnegative().optional(),
    count: z.int().min(1).max(100).optional(),
  })
  .strict();

export const SchedulePreview = z.object({
  fromTick: z.int(),
  ticks: z.array(z.int()),
  /** Where in a tick the agent runs among the others, in [0, 1): LeMMing's order. */
  firePoint: z.number(),
});
export type SchedulePreview = z.infer<typeof SchedulePreview>;

export const FileAccessPreviewInput = z
  .object({
    agent: z.string().min(1).max(256),
    entries: z.array(z.string().max(8192)).max(100),
    /** Judged as grants to read (the default) or to write: no agent may write in a protected place. */
    access: z.enum(['read', 'write']).optional(),
  })
  .strict();

export const FileAccessPreview = z.object({
  previews: z.array(
    z.discriminatedUnion('ok', [
      z.object({
        entry: z.string(),
        ok: z.literal(true),
        /** Where the entry really leads, links resolved. */
        canonical: z.string(),
        /** The same place relative to the org folder ("." is the whole org). */
        display: z.string(),
        exists: z.boolean(),
        /** What agents can never change there whatever their grants (the protected places), in words. */
        readOnly: z.string().optional(),
        /** A grant to write agents/ or an agent's folder: the engine refuses every write there but in workspaces. */
        writesOnlyInWorkspaces: z.literal(true).optional(),
        /**
         * For a grant to write: the other agents whose workspace (their private files) it lets this agent
         * change, which the person is asked about before it is saved; empty for a grant to read.
         */
        otherAgents: z.array(z.string()),
      }),
      z.object({ entry: z.string(), ok: z.literal(false), reason: z.string() }),
    ]),
  ),
});
export type FileAccessPreview = z.infer<typeof FileAccessPreview>;
