import type { Result } from '../api/result';
import type { PathResolver } from './agent-filesystem';
import { resolveAccessEntry, type AccessKind } from './access-policy';
import { DiskAgentFilesystem } from './disk-agent-filesystem';
import { protectedWithin, workspacesHeldBy } from './protected-places';
import { agentLayout } from './sandbox-layout';

/** What an entry will grant, or why it is refused (a sentence naming the entry). */
export type AccessPathPreview = Result<
  {
    /** Where the entry really leads, links resolved. */
    canonical: string;
    /** The same place relative to the org folder, "/" between names ("." is the whole org). */
    display: string;
    exists: boolean;
    /** What agents can never change there whatever their grants (the protected places), in words. */
    readOnly?: string;
    /** A grant to write agents/ or an agent's folder: every write there is refused but in workspaces. */
    writesOnlyInWorkspaces?: true;
  },
  string
>;

/**
 * What a `file_access` entry typed into a path editor will grant, as the sandbox will judge it: the
 * same canonicalizer and the same refusals, read from the disk as it is now. With `agentDir`, entries
 * inside that agent's workspace and shared/ are judged as for that agent; with `kind`, as a grant to
 * read or to write (a write grant of a protected place is refused). `readOnly` says what the
 * protected places (protected-places.ts) keep read-only in it, whatever the grant.
 */
export async function previewAccessPath(
  orgPath: string,
  entry: string,
  options: { agentDir?: string; fs?: PathResolver; kind?: AccessKind } = {},
): Promise<AccessPathPreview> {
  const fs = options.fs ?? new DiskAgentFilesystem();
  const layout = options.agentDir === undefined ? undefined : agentLayout(orgPath, options.agentDir);
  const resolved = await resolveAccessEntry(orgPath, entry, fs, {
    ...(layout ? { layout } : {}),
    ...(options.kind ? { kind: options.kind } : {}),
  });
  if (!resolved.ok) return resolved;
  const { path, display } = resolved.value;
  const exists = (await fs.stat(path).catch(() => null)) !== null;
  const orgReal = await fs.realpath(orgPath).catch(() => orgPath);
  const readOnly = protectedWithin(orgReal, path);
  const onlyWorkspaces = options.kind === 'write' && workspacesHeldBy(orgReal, path) !== null;
  return {
    ok: true,
    value: {
      canonical: path,
      display,
      exists,
      ...(readOnly ? { readOnly } : {}),
      ...(onlyWorkspaces ? { writesOnlyInWorkspaces: true as const } : {}),
    },
  };
}
