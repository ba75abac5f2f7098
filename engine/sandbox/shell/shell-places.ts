import { lstat, mkdir, readdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from '../../api/result';
import type { AgentSandbox } from '../agent-sandbox';
import type { ResolvedGrant } from '../access-policy';
import { AGENTS_FOLDER } from '../../org/org-layout';
import { agentWorkspaces, protectedFolders, protectedFromAgents } from '../protected-places';
import { isWithin, relativeWithin } from '../sandbox-layout';
import type { ShellMount, ShellPlaces } from './confinement';

/** A mount before the identity of its source is taken. */
type NamedMount = Omit<ShellMount, 'device' | 'inode'>;

/** Where the shell runs and what it sees, or why it cannot run. */
export type ShellPlacesResult = Result<ShellPlaces, string>;

/**
 * Where an agent's commands run (its workspace, created if missing) and which folders a confined
 * command may see: each folder the agent may read, writable when it may also write there, at the path
 * the agent knows it by. A folder it may write but not read cannot be offered to a shell, so it is left
 * out. The shell needs the workspace on disk and readable, since that is where commands start.
 *
 * The protected places (protected-places.ts) are laid read-only over every writable folder that holds
 * them, and only the agents' workspaces in them are laid writable again, so no grant lets a command
 * change what defines the org. A protected folder the org lacks is created empty first, so that it
 * can be pinned read-only rather than made by a command. Each protected place is a mount of its own,
 * so a hard link between it and a writable folder fails (EXDEV).
 *
 * Each mount carries the identity (device and inode) of the real folder checked here, taken without
 * following a link at its last name; the program starter opens each source again without following a
 * link at any name and starts nothing unless it is still that folder (child-starters.ts), so another
 * agent swapping a granted folder for a link cannot redirect the mount.
 */
export async function shellPlaces(sandbox: AgentSandbox): Promise<ShellPlacesResult> {
  const { workspacePath } = sandbox.layout;
  try {
    await mkdir(workspacePath, { recursive: true });
  } catch (error) {
    return { ok: false, error: `the workspace ${workspacePath} could not be created (${message(error)})` };
  }
  const [readGrants, writeGrants] = await Promise.all([
    sandbox.policy.resolveGrants('read'),
    sandbox.policy.resolveGrants('write'),
  ]);
  const readRoots = okRoots(readGrants);
  const writeRoots = okRoots(writeGrants).map(({ root }) => root);
  const writableHere = (path: string) => writeRoots.some((root) => isWithin(root, path));
  const readableHere = (path: string) => readRoots.some(({ root }) => isWithin(root, path));

  const candidates: NamedMount[] = [
    ...readRoots.map(({ root, target }) => ({ source: root, target, writable: writableHere(root) })),
    ...okRoots(writeGrants)
      .filter(({ root }) => readableHere(root))
      .map(({ root, target }) => ({ source: root, target, writable: true })),
  ];
  const orgReal = await realpath(sandbox.layout.orgPath);
  const granted = candidates.map((mount) =>
    mount.writable && protectedFromAgents(orgReal, mount.source) !== null
      ? { ...mount, writable: false }
      : mount,
  );
  const pinned = await protectedMounts(orgReal, granted, writeRoots);
  if (!pinned.ok) return pinned;
  const mounts = await identified(uniqueByTarget([...granted, ...pinned.value]));
  if (!mounts.ok) return mounts;

  const workspace = await realpath(workspacePath);
  if (!readableHere(workspace))
    return {
      ok: false,
      error: 'your resume does not let you read your workspace, and the shell runs in it',
    };
  return { ok: true, value: { workingDirectory: workspacePath, mounts: outerFirst(mounts.value) } };
}

/**
 * For each writable mount, the protected places it holds (where they really are) laid over it
 * read-only; then each agent's workspace the agent may write, laid writable again over every
 * read-only mount that holds it.
 */
async function protectedMounts(
  orgReal: string,
  granted: readonly NamedMount[],
  writeRoots: readonly string[],
): Promise<Result<NamedMount[], string>> {
  const under = (mount: NamedMount, path: string) => join(mount.target, relativeWithin(mount.source, path));
  const holding = (path: string) => granted.filter((mount) => mount.writable && isWithin(mount.source, path));
  const pinned: NamedMount[] = [];
  let agentsReal: string | null = null;
  for (const folder of protectedFolders(orgReal)) {
    if (holding(folder).length > 0 && !(await exists(folder))) {
      try {
        await mkdir(folder);
      } catch (error) {
        return {
          ok: false,
          error: `the protected folder ${folder} could not be made ready (${message(error)})`,
        };
      }
    }
    if (holding(folder).length > 0 && !(await isRealFolder(folder)))
      return {
        ok: false,
        error: `${folder} is a symbolic link or not a folder, so the shell could replace it; the shell does not run with write access around it (grant write access to narrower folders)`,
      };
    const real = await realpath(folder).catch(() => null);
    if (real === null) continue;
    if (folder === join(orgReal, AGENTS_FOLDER)) agentsReal = real;
    for (const mount of holding(real))
      pinned.push({ source: real, target: under(mount, real), writable: false });
  }
  if (agentsReal === null) return { ok: true, value: pinned };
  const readOnly = [...granted, ...pinned].filter((mount) => !mount.writable);
  const holes: NamedMount[] = [];
  for (const workspace of agentWorkspaces(agentsReal, await agentFolders(agentsReal))) {
    if (!writeRoots.some((root) => isWithin(root, workspace)) || !(await isRealFolder(workspace))) continue;
    for (const mount of readOnly.filter((candidate) => isWithin(candidate.source, workspace)))
      holes.push({ source: workspace, target: under(mount, workspace), writable: true });
  }
  return { ok: true, value: [...pinned, ...holes] };
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function isRealFolder(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}

async function agentFolders(agents: string): Promise<string[]> {
  try {
    return (await readdir(agents, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

function okRoots(grants: readonly ResolvedGrant[]): { root: string; target: string }[] {
  return grants.flatMap((grant) =>
    grant.ok ? [{ root: grant.value.root, target: grant.value.grant.lexicalPath }] : [],
  );
}

/** One mount per place: a place granted both ways is writable. */
function uniqueByTarget(mounts: readonly NamedMount[]): NamedMount[] {
  const byTarget = new Map<string, NamedMount>();
  for (const mount of mounts) {
    const known = byTarget.get(mount.target);
    if (!known || (mount.writable && !known.writable)) byTarget.set(mount.target, mount);
  }
  return [...byTarget.values()];
}

/**
 * The mounts whose source is there, each with its identity; a source that became a link since its real
 * path was found (another agent swapping it) stops the command rather than be mounted or left out.
 */
async function identified(mounts: readonly NamedMount[]): Promise<Result<ShellMount[], string>> {
  const found = await Promise.all(
    mounts.map((mount) => lstat(mount.source, { bigint: true }).catch(() => null)),
  );
  const identifiedMounts: ShellMount[] = [];
  for (const [index, mount] of mounts.entries()) {
    const status = found[index];
    if (status === null || status === undefined) continue;
    if (status.isSymbolicLink())
      return {
        ok: false,
        error: `${mount.source} was replaced by a link while the command was being prepared, so it did not run`,
      };
    identifiedMounts.push({ ...mount, device: String(status.dev), inode: String(status.ino) });
  }
  return { ok: true, value: identifiedMounts };
}

function outerFirst(mounts: readonly ShellMount[]): ShellMount[] {
  const depth = (path: string) => path.split(/[\\/]+/).filter((name) => name !== '').length;
  return [...mounts].sort((a, b) => depth(a.target) - depth(b.target) || a.target.localeCompare(b.target));
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
