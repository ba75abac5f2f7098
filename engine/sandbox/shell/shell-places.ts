import { mkdir, realpath, stat } from 'node:fs/promises';
import type { AgentSandbox } from '../agent-sandbox';
import type { ResolvedGrant } from '../access-policy';
import { isWithin } from '../sandbox-layout';
import type { ShellMount, ShellPlaces } from './confinement';

export type ShellPlacesResult = ({ ok: true } & ShellPlaces) | { ok: false; reason: string };

/**
 * Where an agent's commands run (its workspace, created if missing) and which folders a confined
 * command may see: each folder the agent may read, writable when it may also write there, at the path
 * the agent knows it by. A folder it may write but not read cannot be offered to a shell, so it is left
 * out. The shell needs the workspace on disk and readable, since that is where commands start.
 */
export async function shellPlaces(sandbox: AgentSandbox): Promise<ShellPlacesResult> {
  const { workspacePath } = sandbox.layout;
  try {
    await mkdir(workspacePath, { recursive: true });
  } catch (error) {
    return { ok: false, reason: `the workspace ${workspacePath} could not be created (${message(error)})` };
  }
  const [readGrants, writeGrants] = await Promise.all([
    sandbox.policy.resolveGrants('read'),
    sandbox.policy.resolveGrants('write'),
  ]);
  const readRoots = okRoots(readGrants);
  const writeRoots = okRoots(writeGrants).map(({ root }) => root);
  const writableHere = (path: string) => writeRoots.some((root) => isWithin(root, path));
  const readableHere = (path: string) => readRoots.some(({ root }) => isWithin(root, path));

  const candidates: ShellMount[] = [
    ...readRoots.map(({ root, target }) => ({ source: root, target, writable: writableHere(root) })),
    ...okRoots(writeGrants)
      .filter(({ root }) => readableHere(root))
      .map(({ root, target }) => ({ source: root, target, writable: true })),
  ];
  const mounts = await existing(uniqueByTarget(candidates));

  const workspace = await realpath(workspacePath);
  if (!readableHere(workspace))
    return {
      ok: false,
      reason: 'your resume does not let you read your workspace, and the shell runs in it',
    };
  return { ok: true, workingDirectory: workspacePath, mounts: outerFirst(mounts) };
}

function okRoots(grants: readonly ResolvedGrant[]): { root: string; target: string }[] {
  return grants.flatMap((grant) => (grant.ok ? [{ root: grant.root, target: grant.grant.lexicalPath }] : []));
}

/** One mount per place: a place granted both ways is writable. */
function uniqueByTarget(mounts: readonly ShellMount[]): ShellMount[] {
  const byTarget = new Map<string, ShellMount>();
  for (const mount of mounts) {
    const known = byTarget.get(mount.target);
    if (!known || (mount.writable && !known.writable)) byTarget.set(mount.target, mount);
  }
  return [...byTarget.values()];
}

async function existing(mounts: readonly ShellMount[]): Promise<ShellMount[]> {
  const found = await Promise.all(
    mounts.map(async (mount) => {
      try {
        await stat(mount.source);
        return true;
      } catch {
        return false;
      }
    }),
  );
  return mounts.filter((_, index) => found[index]);
}

function outerFirst(mounts: readonly ShellMount[]): ShellMount[] {
  const depth = (path: string) => path.split(/[\\/]+/).filter((name) => name !== '').length;
  return [...mounts].sort((a, b) => depth(a.target) - depth(b.target) || a.target.localeCompare(b.target));
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
