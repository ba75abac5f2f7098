import { join } from 'node:path';

/** The folder every agent's folder is in. */
export const AGENTS_FOLDER = 'agents';

/**
 * Where an agent's things are in an org folder, as LeMMing lays them out: paths relative to the org,
 * with "/" between names (how files are named in problems, events and the journal of owed writes).
 */
export const agentPaths = (folder: string) => {
  const root = `${AGENTS_FOLDER}/${folder}`;
  return {
    root,
    resume: `${root}/resume.json`,
    legacyResume: `${root}/resume.txt`,
    workspace: `${root}/workspace`,
    memory: `${root}/memory`,
    memoryFile: (key: string) => `${root}/memory/${key}.json`,
    outbox: `${root}/outbox`,
    outboxFile: (name: string) => `${root}/outbox/${name}`,
    logs: `${root}/logs`,
    activityLog: `${root}/logs/activity.log`,
    structuredLog: `${root}/logs/structured.jsonl`,
    skills: `${root}/skills`,
    apiTools: `${root}/api-tools`,
    /** Who this agent is, apart from its name: see engine/org/agent-identity.ts. */
    identity: `${root}/.agent-id`,
  };
};

/** An org-relative path (`agents/ada/memory`) as a path on this computer. */
export function inOrg(orgPath: string, relativePath: string): string {
  return join(orgPath, ...relativePath.split('/'));
}
