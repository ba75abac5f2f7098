import { z } from 'zod';
import { AgentName } from './org-schemas';
import { Problem } from './problem';
import { TemplateName } from './template-schemas';
import { ReachItem } from './trust-schemas';

/** One line of a text diff. */
export const DiffLine = z.object({ kind: z.enum(['same', 'added', 'removed']), text: z.string() });
export type DiffLine = z.infer<typeof DiffLine>;

/** What part of an agent a change is about. */
export const AgentChangeAspect = z.enum([
  'title',
  'description',
  'instructions',
  'model',
  'tools',
  'file_access',
  'messages',
  'schedule',
  'skills',
  'api_tools',
  'other',
]);
export type AgentChangeAspect = z.infer<typeof AgentChangeAspect>;

export const AgentChange = z.object({
  aspect: AgentChangeAspect,
  /** The change in plain words: `Gains the tools: shell`. */
  words: z.string(),
  /** It gives the agent more power (new tools, file access, tool files); whether the org then needs trust again is `AgentUpdate.reachAdded`. */
  widens: z.boolean(),
});
export type AgentChange = z.infer<typeof AgentChange>;

/**
 * One agent, compared between this org and the newer copy:
 * - `changed`: both have it and its definition differs;
 * - `unchanged`: both have it, alike;
 * - `added`: only the newer copy has it (applying adds it);
 * - `removed`: only this org has it (kept unless the person removes it).
 */
export const AgentUpdate = z.object({
  agent: z.string(),
  status: z.enum(['changed', 'unchanged', 'added', 'removed']),
  changes: z.array(AgentChange),
  /** The instructions' line diff, when they change. */
  instructionsDiff: z.array(DiffLine).nullable(),
  /** Some change gives it more power (see AgentChange.widens). */
  widens: z.boolean(),
  /**
   * What the org could newly run or reach once this agent is updated, as engine/trust reads it (programs,
   * addresses, secrets, agents that may run commands or reach the web): when any, it needs trust again.
   */
  reachAdded: z.array(ReachItem),
});
export type AgentUpdate = z.infer<typeof AgentUpdate>;

export const OrgUpdatePlan = z.object({
  /** Where the newer copy was read from (the folder or bundle named, or the template's folder): what applying names. */
  source: z.string(),
  agents: z.array(AgentUpdate),
  /** Agents of either side that could not be read; they are left out of the update. */
  problems: z.array(Problem),
});
export type OrgUpdatePlan = z.infer<typeof OrgUpdatePlan>;

/** The newer copy by where it is: a folder, or a `.lemming.zip` bundle. */
export const OrgUpdateSourceInput = z
  .object({ source: z.string().min(1, 'Choose the folder or bundle to update from.').max(4096) })
  .strict();
export type OrgUpdateSourceInput = z.infer<typeof OrgUpdateSourceInput>;

/** What to compare with: a folder or bundle, or a template shipped with the app, by its name. */
export const OrgUpdatePlanInput = z.union([
  OrgUpdateSourceInput,
  z.object({ template: TemplateName }).strict(),
]);
export type OrgUpdatePlanInput = z.infer<typeof OrgUpdatePlanInput>;

export const ApplyOrgUpdateInput = OrgUpdateSourceInput.extend({
  /** Changed agents to update and new agents to add. */
  agents: z.array(AgentName).max(10_000),
  /** Agents gone from the newer copy that the person chose to remove. */
  remove: z.array(AgentName).max(10_000).default([]),
}).strict();
export type ApplyOrgUpdateInput = z.input<typeof ApplyOrgUpdateInput>;

export const OrgUpdateApplied = z.object({
  updated: z.array(z.string()),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  /** What the org can newly run or reach after the update; when any, it needs the person's trust again. */
  reachAdded: z.array(ReachItem),
  needsTrustAgain: z.boolean(),
});
export type OrgUpdateApplied = z.infer<typeof OrgUpdateApplied>;
