import { z } from 'zod';
import { McpToolVersion } from './tool-schemas';

/**
 * "Ask me first" (docs/ARCHITECTURE.md, “Approvals”): for each tool and agent, whether a call may run
 * without asking (`always`), must be approved by the person first (`ask`), or may never run (`never`).
 */
export const ApprovalMode = z.enum(['never', 'ask', 'always'], {
  error: 'an approval setting must be "never", "ask" or "always"',
});
export type ApprovalMode = z.infer<typeof ApprovalMode>;

/** How long an unanswered request waits before it counts as denied, unless the file says otherwise. */
export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 300;

const modesByTool = (what: string) =>
  z.record(z.string(), ApprovalMode, { error: `${what} must map tool names to "never", "ask" or "always"` });

/** `lemming/config/approvals.json`: the org's approval settings. Unknown fields are kept. */
export const ApprovalSettings = z.looseObject({
  /** Seconds a request waits for an answer before it is denied. */
  timeout_seconds: z
    .number({ error: 'timeout_seconds must be a number of seconds' })
    .positive('timeout_seconds must be more than 0')
    .default(DEFAULT_APPROVAL_TIMEOUT_SECONDS),
  /** Settings for every agent, by tool name; an agent's own setting wins. */
  tools: modesByTool('tools').default({}),
  /**
   * Each agent's settings, by agent name, then tool name. An agent's own `always` lets a tool run
   * unasked only when the person said so (their record, outside the org); `never` and `ask` hold.
   */
  agents: z
    .record(z.string(), modesByTool('each entry of agents'), {
      error: 'agents must map agent names to their tool settings',
    })
    .default({}),
  /**
   * Which agent each entry of `agents` was made for, by name: its identity (agents/<folder>/.agent-id),
   * so a new agent given the name of one that is gone does not take its settings over.
   */
  agent_ids: z
    .record(z.string(), z.string(), { error: 'agent_ids must map agent names to their ids' })
    .default({}),
});

/** The person's "always" answers for one agent of an org, kept under the agent's identity in their record. */
export const AgentAllowances = z.object({
  /** The agent's name when the person answered, for whoever reads the record. */
  name: z.string(),
  /** Tools the person let this agent run without asking. */
  always: z.array(z.string()).default([]),
});
export type AgentAllowances = z.infer<typeof AgentAllowances>;
export type ApprovalSettings = z.output<typeof ApprovalSettings>;

/**
 * The person's record of one MCP tool (kept outside the org, in their trust record): the tool as it
 * was first seen, or as it was when they last chose how it runs; whether its server still lists it;
 * the tools that disappeared as it appeared (it may be one of them renamed); and their choices per
 * agent, which hold only while the tool stays as `seen`.
 */
export const McpToolRecord = z.object({
  seen: McpToolVersion,
  /** When `seen` was recorded (ISO 8601). */
  at: z.string(),
  listed: z.boolean(),
  replacing: z.array(z.string()).default([]),
  modes: z.record(z.string(), ApprovalMode).default({}),
});
export type McpToolRecord = z.infer<typeof McpToolRecord>;

/** The person's record of one MCP server of an org, kept under the server's identity. */
export const McpServerRecord = z.object({
  /** The person trusts what this server says about which of its tools only read. Off unless they said so. */
  hintsTrusted: z.boolean().default(false),
  /**
   * The person lets this server ask the models of the agents using it (MCP sampling), each question paid
   * by the agent whose tool call it serves. Off unless they said so; absent in records written before it.
   */
  samplingAllowed: z.boolean().optional(),
  /** By the tool's name on the server. */
  tools: z.record(z.string(), McpToolRecord).default({}),
});
export type McpServerRecord = z.infer<typeof McpServerRecord>;

/** Who or what answered a request. */
export const ApprovalSource = z.enum([
  'person',
  'setting',
  'command_line',
  'unattended',
  'timeout',
  'stopped',
]);
export type ApprovalSource = z.infer<typeof ApprovalSource>;

/** One answer a form field takes: text, a number, yes/no, or several choices. */
export const FormValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type FormValue = z.infer<typeof FormValue>;

/** One choice of a choice field: the value sent, and the words shown (the value itself when the server gave none). */
export const FormChoice = z.object({ value: z.string(), label: z.string() });
export type FormChoice = z.infer<typeof FormChoice>;

/**
 * One field of a form an MCP server asks the person to fill in (elicitation, form mode): the kinds the
 * specification allows, flat, with the server's words, limits and default.
 */
export const FormField = z.object({
  name: z.string(),
  /** text, a whole number, a number, yes/no, one of `choices`, or several of `choices`. */
  type: z.enum(['text', 'integer', 'number', 'yes_no', 'choice', 'choices']),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean(),
  /** For text: email, uri, date or date-time. */
  format: z.string().optional(),
  choices: z.array(FormChoice).optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  /** Characters for text, choices for several choices. */
  minLength: z.number().optional(),
  maxLength: z.number().optional(),
  default: FormValue.optional(),
});
export type FormField = z.infer<typeof FormField>;

/** A form an MCP server asks the person to fill in while an agent's call to it runs. */
export const FormRequest = z.object({
  /** The server's name in mcp.json. */
  server: z.string(),
  /** What the server says it wants, in its own words. */
  message: z.string(),
  fields: z.array(FormField),
});
export type FormRequest = z.infer<typeof FormRequest>;

/** A call waiting for the person's answer, as the approval card shows it. Secrets in `args` are redacted. */
export const ApprovalRequest = z.object({
  id: z.string(),
  agent: z.string(),
  tool: z.string(),
  /** The tool's title, as the person reads it (the id stays in `tool`). */
  title: z.string().optional(),
  /** The call's exact arguments, secret values replaced by their names. */
  args: z.unknown(),
  /** Why this call asks, in plain words. */
  reason: z.string(),
  /** For an MCP tool that changed since the person chose how it runs: what changed, one sentence each. */
  changes: z.array(z.string()).optional(),
  /**
   * Set when an MCP server asks the person to fill in a form during the call (`tool`): approving sends the
   * form's values, denying declines it.
   */
  form: FormRequest.optional(),
  tick: z.int(),
  /** When it was asked and when it will count as denied (ISO 8601). */
  asked_at: z.string(),
  expires_at: z.string(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequest>;

export const ApprovalAnswerKind = z.enum(['approve_once', 'approve_always', 'deny']);
export type ApprovalAnswerKind = z.infer<typeof ApprovalAnswerKind>;

/** The values a form was filled in with, by field name. */
export const FormValues = z.record(z.string(), FormValue);
export type FormValues = z.infer<typeof FormValues>;

/**
 * The answer to one request. A denial's reason is given to the model with the tool error. For a form:
 * approving sends `values`; a denial declines it, unless `dismissed` (closed without a choice: the
 * specification's "cancel").
 */
export const ApprovalAnswer = z.object({
  answer: ApprovalAnswerKind,
  reason: z.string().max(2000).optional(),
  source: ApprovalSource,
  values: FormValues.optional(),
  dismissed: z.boolean().optional(),
});
export type ApprovalAnswer = z.infer<typeof ApprovalAnswer>;

export const AnswerApprovalInput = z.strictObject({
  id: z.string().min(1),
  answer: ApprovalAnswerKind,
  reason: z.string().max(2000).optional(),
  /** For a form: what the person filled in (approving), by field name. */
  values: FormValues.optional(),
  /** For a form: closed without accepting or declining. */
  dismissed: z.boolean().optional(),
});
export type AnswerApprovalInput = z.infer<typeof AnswerApprovalInput>;

export const PendingApprovals = z.object({ requests: z.array(ApprovalRequest) });
export type PendingApprovals = z.infer<typeof PendingApprovals>;

/** One tool's approval setting for one agent, as the Tool Store shows it. */
export const ToolApprovalSetting = z.object({
  tool: z.string(),
  title: z.string(),
  /** What applies now. */
  mode: ApprovalMode,
  /** Where it comes from: the agent's own setting, the org's setting for every agent, or the built-in rule. */
  from: z.enum(['agent', 'org', 'default']),
  /** The built-in rule in plain words: when it asks, or that it does not. */
  defaultRule: z.string(),
  /** For an MCP tool that changed since the person chose how it runs: what changed. Choosing again accepts it. */
  changes: z.array(z.string()).default([]),
});

export const AgentApprovalSettings = z.object({
  agent: z.string(),
  tools: z.array(ToolApprovalSetting),
});

export const ApprovalSettingsView = z.object({
  timeoutSeconds: z.number(),
  agents: z.array(AgentApprovalSettings),
});
export type ApprovalSettingsView = z.infer<typeof ApprovalSettingsView>;

/** Sets one agent's mode for one tool; `null` goes back to the org's setting or the built-in rule. */
export const SetApprovalModeInput = z.strictObject({
  agent: z.string().min(1),
  tool: z.string().min(1),
  mode: ApprovalMode.nullable(),
});
export type SetApprovalModeInput = z.infer<typeof SetApprovalModeInput>;

/** How long a request waits for an answer before it is denied. */
export const SetApprovalTimeoutInput = z.strictObject({
  seconds: z
    .number()
    .positive('the wait must be more than 0 seconds')
    .max(86_400, 'the wait can be a day at most'),
});
export type SetApprovalTimeoutInput = z.infer<typeof SetApprovalTimeoutInput>;
