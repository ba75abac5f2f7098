import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { AgentListItem, OrgSummary } from '../api/schemas';
import { discoverAgents, type DiscoveredAgent } from './discover';

export class OrgNotFoundError extends Error {}

export interface OpenedOrg {
  summary: OrgSummary;
  agents: AgentListItem[];
}

/** Reads an org folder: its agents, valid or not. Fails only when the folder itself is missing. */
export async function openOrg(path: string): Promise<OpenedOrg> {
  const orgPath = resolve(path);
  const info = await stat(orgPath).catch(() => null);
  if (!info) throw new OrgNotFoundError(`No folder at ${orgPath}.`);
  if (!info.isDirectory()) throw new OrgNotFoundError(`${orgPath} is a file, not an org folder.`);

  const agents = (await discoverAgents(orgPath)).map(toListItem);
  return {
    summary: {
      path: orgPath,
      name: basename(orgPath),
      agentCount: agents.length,
      invalidAgentCount: agents.filter((agent) => !agent.valid).length,
    },
    agents,
  };
}

function toListItem(agent: DiscoveredAgent): AgentListItem {
  return agent.valid
    ? {
        folder: agent.folder,
        name: agent.resume.name,
        title: agent.resume.title,
        valid: true,
        problems: [],
        warnings: agent.warnings,
      }
    : {
        folder: agent.folder,
        name: agent.name,
        title: agent.title,
        valid: false,
        problems: agent.problems,
        warnings: agent.warnings,
      };
}
