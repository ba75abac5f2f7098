import { join } from 'node:path';
import { AGENTS_FOLDER } from '../org/org-layout';
import type { PathResolver } from './agent-filesystem';
import { isWithin, relativeWithin } from './sandbox-layout';

/**
 * The one rule for what agents may never change, whatever their grants say and whichever tool they
 * use (file tools, the shell, anything that touches the disk): the org's configuration and timeline
 * (lemming/, .lemming/), the org's tools (tools/), and everything under agents/ but each agent's
 * workspace — resumes, outboxes, memory, logs, skills and api-tools, the agent's own included — since
 * changing those would grant permissions, forge messages or rewrite history. The file tools ask
 * protectedFromAgents, the shell mounts these places read-only (shellPlaces), and the path editor's
 * preview and the tool explainer word them with describeProtectedPlaces.
 */
export const PROTECTED_ORG_FOLDERS = ['lemming', '.lemming', 'tools', 'agents'] as const;

/** Inside each agent's folder (AGENTS_FOLDER, protected), the one place agents may change. */
export const WORKSPACE_FOLDER = 'workspace';

/** Why `target` may not be changed by an agent, or null when it may (given a grant). Paths are real and absolute. */
export function protectedFromAgents(orgRealPath: string, target: string): string | null {
  if (!isWithin(orgRealPath, target)) return null;
  const [top, agent, area] = relativeWithin(orgRealPath, target).split('/');
  if (top === AGENTS_FOLDER) {
    return agent !== undefined && area === WORKSPACE_FOLDER
      ? null
      : "is in an agent's folder outside its workspace (resumes, outboxes, memory, logs, skills and api-tools are changed only by the engine)";
  }
  if (top !== undefined && (PROTECTED_ORG_FOLDERS as readonly string[]).includes(top)) {
    return `is in the org's ${top}/ folder, which agents may not change (it holds the org's configuration, tools or timeline)`;
  }
  return null;
}

/** The protected folders of an org, under its real path: each whole tree is read-only to agents. */
export function protectedFolders(orgRealPath: string): string[] {
  return PROTECTED_ORG_FOLDERS.map((name) => join(orgRealPath, name));
}

/** The writable holes in agents/ (given as its real path): the workspace of each agent folder named. */
export function agentWorkspaces(agentsRealPath: string, agentFolders: readonly string[]): string[] {
  return agentFolders.map((folder) => join(agentsRealPath, folder, WORKSPACE_FOLDER));
}

/**
 * protectedFromAgents for a canonical path, also when a protected folder of the org is a link the
 * user made to somewhere else: a path inside where the link leads is judged as the path through it.
 */
export async function protectedTarget(
  orgRealPath: string,
  canonical: string,
  fs: PathResolver,
): Promise<string | null> {
  const direct = protectedFromAgents(orgRealPath, canonical);
  if (direct !== null) return direct;
  for (const folder of protectedFolders(orgRealPath)) {
    const real = await fs.realpath(folder).catch(() => folder);
    if (real !== folder && isWithin(real, canonical)) {
      const reason = protectedFromAgents(orgRealPath, join(folder, relativeWithin(real, canonical)));
      if (reason !== null) return reason;
    }
  }
  return null;
}

/** The rule in words, for the path editor's preview, the shell's description and the explainer. */
export const PROTECTED_PLACES_IN_WORDS =
  "the org's configuration and timeline (lemming/, .lemming/), its tools (tools/), and every agent's resume, outbox, memory, logs, skills and api-tools (all of agents/ except each agent's workspace) can be read if granted but never changed by an agent";

/**
 * What a grant of `canonical` leaves read-only, for the path editor's preview: the whole grant when it
 * lies in a protected place, the protected places inside it when it holds some, or null.
 */
export function protectedWithin(orgRealPath: string, canonical: string): string | null {
  const workspaces = workspacesHeldBy(orgRealPath, canonical);
  if (workspaces !== null)
    return `Agents can never change anything here except in ${workspaces}: the app keeps resumes, outboxes, memory and logs`;
  if (protectedFromAgents(orgRealPath, canonical) !== null)
    return 'Agents can read here if allowed, but never change anything here: the app keeps these files';
  const inside = protectedFolders(orgRealPath).filter((folder) => isWithin(canonical, folder));
  if (inside.length === 0) return null;
  const names = inside.map((folder) => `${relativeWithin(canonical, folder)}/`);
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return `Agents can never change ${listed} in it${inside.includes(join(orgRealPath, AGENTS_FOLDER)) ? " (except each agent's workspace)" : ''}`;
}

/**
 * For agents/ or one agent's folder (protected, but holding workspaces an agent may write in): where a
 * grant of it lets writes land, in words; null for any other place.
 */
export function workspacesHeldBy(orgRealPath: string, canonical: string): string | null {
  if (!isWithin(orgRealPath, canonical)) return null;
  const parts = relativeWithin(orgRealPath, canonical).split('/');
  if (parts[0] !== AGENTS_FOLDER || parts.length > 2) return null;
  return parts.length === 1
    ? "each agent's workspace"
    : `the workspace (${AGENTS_FOLDER}/${parts[1]}/${WORKSPACE_FOLDER})`;
}
