import { fail, ok, type IpcResult } from '../api/result';
import { discoverAgents, type DiscoveredAgent } from '../org/discover';
import { issuesFromProblems } from './problems';

export function nameOf(agent: DiscoveredAgent): string {
  return agent.valid ? agent.resume.name : agent.name;
}

/**
 * The agent the renderer means by `name`: the valid agent whose resume has that name, else an invalid
 * one listed under it, else the one in the folder of that name.
 */
export async function findAgent(orgPath: string, name: string): Promise<IpcResult<DiscoveredAgent>> {
  const agents = await discoverAgents(orgPath);
  const agent =
    agents.find((candidate) => candidate.valid && candidate.resume.name === name) ??
    agents.find((candidate) => nameOf(candidate) === name) ??
    agents.find((candidate) => candidate.folder === name);
  return agent ? ok(agent) : fail('agent_not_found', `There is no agent named "${name}" in ${orgPath}.`);
}

export type ValidAgent = Extract<DiscoveredAgent, { valid: true }>;

/** The agent, when its resume can be used; `invalid_change` with the resume's problems when not. */
export async function findValidAgent(orgPath: string, name: string): Promise<IpcResult<ValidAgent>> {
  const found = await findAgent(orgPath, name);
  if (!found.ok) return found;
  if (!found.value.valid)
    return fail(
      'invalid_change',
      `Fix ${found.value.resumeFile} first.`,
      issuesFromProblems(found.value.problems),
    );
  return ok(found.value);
}
