import { stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { AgentListItem, OrgSummary } from '../api/schemas';
import { discoverAgents, type DiscoveredAgent } from './discover';

export class OrgNotFoundError extends Error {}

/** The folder is there but holds no `agents` folder: it is not an org (yet), and nothing is written to it. */
export class NotAnOrgError extends OrgNotFoundError {
  constructor(readonly orgPath: string) {
    super(`${orgPath} is not an org folder: it has no “agents” folder.`);
  }
}

export interface OpenedOrg {
  summary: OrgSummary;
  agents: AgentListItem[];
}

/** Reads an org folder: its agents, valid or not. Fails when the folder is missing or has no `agents` folder. */
export async function openOrg(path: string): Promise<OpenedOrg> {
  const orgPath = resolve(path);
  const info = await stat(orgPath).catch(() => null);
  if (!info) throw new OrgNotFoundError(`No folder at ${orgPath}.`);
  if (!info.isDirectory()) throw new OrgNotFoundError(`${orgPath} is a file, not an org folder.`);
  const agentsFolder = await stat(join(orgPath, 'agents')).catch(() => null);
  if (!agentsFolder?.isDirectory()) throw new NotAnOrgError(orgPath);

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
        ...(agent.readError ? { unreadable: true as const } : {}),
        problems: agent.problems,
        warnings: agent.warnings,
      };
}
