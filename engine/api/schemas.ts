import { z } from 'zod';
import { Problem } from './problem';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  runtime: z.object({
    node: z.string(),
    electron: z.string().nullable(),
    chrome: z.string().nullable(),
    sqlite: z.string(),
  }),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** A problem in one of the org's files (a resume, a config file, a tool file). */
export const AgentProblem = Problem;
export type AgentProblem = Problem;

export const AgentListItem = z.object({
  /** The agent's folder under agents/. */
  folder: z.string(),
  /** resume.name when it could be read, else the folder name. */
  name: z.string(),
  title: z.string().nullable(),
  valid: z.boolean(),
  /** Its resume.json exists but could not be read (the problem says why), which is not an invalid resume. */
  unreadable: z.literal(true).optional(),
  problems: z.array(AgentProblem),
  warnings: z.array(AgentProblem),
});
export type AgentListItem = z.infer<typeof AgentListItem>;

export const OrgSummary = z.object({
  path: z.string(),
  name: z.string(),
  agentCount: z.number().int(),
  invalidAgentCount: z.number().int(),
});
export type OrgSummary = z.infer<typeof OrgSummary>;
