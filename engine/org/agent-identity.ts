import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { agentPaths, inOrg } from './org-layout';

const IDENTITY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Who an agent is, apart from its name: a random id in `agents/<folder>/.agent-id`, written by the
 * engine when the agent is created (or first needs one). Approval settings and the person's "always"
 * answers are kept for this id, so a new agent given the name of one that is gone starts with none.
 * Agents cannot write the file: everything in an agent's folder but its workspace is protected
 * (engine/sandbox/protected-places.ts). LeMMing ignores it.
 */
export async function agentIdentity(orgPath: string, folder: string): Promise<string> {
  const file = inOrg(orgPath, agentPaths(folder).identity);
  const kept = await readIdentity(file);
  if (kept) return kept;
  try {
    return await writeIdentity(file, { replace: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another caller wrote it first: its id is the agent's; a file that holds no id is replaced.
    return (await readIdentity(file)) ?? writeIdentity(file, { replace: true });
  }
}

/** Gives a new agent its own id, whatever a folder of its name held before. */
export async function newAgentIdentity(orgPath: string, folder: string): Promise<string> {
  return writeIdentity(inOrg(orgPath, agentPaths(folder).identity), { replace: true });
}

/** The agent's id when it has one; null for a folder that never needed one. */
export function keptAgentIdentity(orgPath: string, folder: string): Promise<string | null> {
  return readIdentity(inOrg(orgPath, agentPaths(folder).identity));
}

async function readIdentity(file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const id = text.trim();
  return IDENTITY.test(id) ? id : null;
}

async function writeIdentity(file: string, { replace }: { replace: boolean }): Promise<string> {
  const id = randomUUID();
  const { O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_NOFOLLOW } = constants;
  const flags = O_WRONLY | O_CREAT | O_NOFOLLOW | (replace ? O_TRUNC : O_EXCL);
  const handle = await open(file, flags, 0o644);
  try {
    await handle.writeFile(`${id}\n`);
  } finally {
    await handle.close();
  }
  return id;
}
