import { fail, ok, type IpcResult } from '../api/result';
import { discoverAgents, type DiscoveredAgent } from '../org/discover';

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
