import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProblem } from '../api/schemas';
import { parseJsonText } from './json-text';
import { ResumeSchema, type Resume } from './resume-schema';

/** LeMMing skips this folder: it holds the template new agents are copied from. */
const TEMPLATE_FOLDER = 'agent_template';

export type DiscoveredAgent =
  | { folder: string; resumeFile: string; valid: true; resume: Resume; raw: unknown; warnings: AgentProblem[] }
  | { folder: string; resumeFile: string; valid: false; name: string; title: string | null; problems: AgentProblem[]; warnings: AgentProblem[] };

/**
 * Finds agents at `agents/<folder>/resume.json` and nowhere deeper, so an agent that writes a
 * resume.json into its own workspace cannot create a new agent. Invalid resumes are returned with
 * their problems, never thrown.
 */
export async function discoverAgents(orgPath: string): Promise<DiscoveredAgent[]> {
  const agentsDir = join(orgPath, 'agents');
  const entries = await readdir(agentsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const folders = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== TEMPLATE_FOLDER)
    .map((entry) => entry.name)
    .sort(compareCodePoints);

  const found: DiscoveredAgent[] = [];
  for (const folder of folders) {
    const agent = await readAgentFolder(orgPath, folder);
    if (agent) found.push(agent);
  }
  return markDuplicateNames(found);
}

async function readAgentFolder(orgPath: string, folder: string): Promise<DiscoveredAgent | null> {
  const resumeFile = `agents/${folder}/resume.json`;
  let text: string;
  try {
    text = await readFile(join(orgPath, resumeFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return invalid(folder, resumeFile, null, [{ file: resumeFile, field: '', message: `cannot read: ${(error as Error).message}` }]);
  }

  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { message, line, column } = parsed.error;
    return invalid(folder, resumeFile, null, [{ file: resumeFile, field: '', message, line, column }]);
  }
  const result = ResumeSchema.safeParse(parsed.value);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => ({
      file: resumeFile,
      field: issue.path.map(String).join('.'),
      message: issue.code === 'invalid_type' && issue.input === undefined ? `missing required field "${issue.path.map(String).join('.')}"` : issue.message,
    }));
    return invalid(folder, resumeFile, parsed.value, problems);
  }
  const warnings: AgentProblem[] =
    result.data.name === folder
      ? []
      : [{ file: resumeFile, field: 'name', message: `the agent is named "${result.data.name}" but lives in folder "${folder}"` }];
  return { folder, resumeFile, valid: true, resume: result.data, raw: parsed.value, warnings };
}

function invalid(folder: string, resumeFile: string, raw: unknown, problems: AgentProblem[]): DiscoveredAgent {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    folder,
    resumeFile,
    valid: false,
    name: typeof record.name === 'string' && record.name.trim() ? record.name : folder,
    title: typeof record.title === 'string' ? record.title : null,
    problems,
    warnings: [],
  };
}

/** Identity is resume.name; a second agent claiming a taken name is invalid (folders are visited in code-point order). */
function markDuplicateNames(agents: DiscoveredAgent[]): DiscoveredAgent[] {
  const owners = new Map<string, string>();
  return agents.map((agent) => {
    if (!agent.valid) return agent;
    const owner = owners.get(agent.resume.name);
    if (owner === undefined) {
      owners.set(agent.resume.name, agent.folder);
      return agent;
    }
    return {
      folder: agent.folder,
      resumeFile: agent.resumeFile,
      valid: false,
      name: agent.resume.name,
      title: agent.resume.title,
      problems: [{ file: agent.resumeFile, field: 'name', message: `the name "${agent.resume.name}" is already used by agents/${owner}` }],
      warnings: agent.warnings,
    };
  });
}

/** LeMMing orders by Python string comparison, i.e. by code point, not by locale. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
