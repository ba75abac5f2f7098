import { join } from 'node:path';
import type { AgentFilesystem } from '../../../sandbox/agent-filesystem';

/** ljk's `grepMaxScannedFiles`: a search looks at no more files than this. */
export const MAX_SCANNED_FILES = 20_000;

export interface WalkedFile {
  /** Canonical path, for the AgentFilesystem. */
  path: string;
  /** Relative to the walked folder, with "/" between names. */
  relative: string;
  mtimeMs: number;
  size: number;
}

export interface WalkOptions {
  maxFiles?: number;
  /** Folder names never entered (e.g. `.git`). */
  skipFolders?: ReadonlySet<string>;
  /** Skip files and folders whose name starts with "." (ripgrep's default). */
  skipHidden?: boolean;
  signal?: AbortSignal;
}

export interface Walk {
  files: WalkedFile[];
  /** True when the walk stopped at `maxFiles` with folders left to look at. */
  truncated: boolean;
}

/**
 * Every regular file under `root` (a canonical folder the sandbox has checked), breadth first, each
 * folder in name order. Symbolic links are never followed and never listed, so the walk cannot leave
 * the checked folder; a folder that cannot be read (for example one swapped for a link while the walk
 * ran, which the AgentFilesystem refuses) is skipped.
 */
export async function walkFiles(fs: AgentFilesystem, root: string, options: WalkOptions = {}): Promise<Walk> {
  const maxFiles = options.maxFiles ?? MAX_SCANNED_FILES;
  const files: WalkedFile[] = [];
  const queue: { path: string; relative: string }[] = [{ path: root, relative: '' }];
  for (let index = 0; index < queue.length; index += 1) {
    const next = queue[index] as { path: string; relative: string };
    options.signal?.throwIfAborted();
    const entries = await fs.readDir(next.path).catch(() => []);
    for (const entry of entries) {
      if (options.skipHidden && entry.name.startsWith('.')) continue;
      const relative = next.relative === '' ? entry.name : `${next.relative}/${entry.name}`;
      const path = join(next.path, entry.name);
      if (entry.kind === 'directory' && !options.skipFolders?.has(entry.name)) queue.push({ path, relative });
      if (entry.kind !== 'file') continue;
      if (files.length === maxFiles) return { files, truncated: true };
      files.push({ path, relative, mtimeMs: entry.mtimeMs, size: entry.size });
    }
  }
  return { files, truncated: false };
}

/** Newest first; equal times in path order. */
export function byNewestFirst(a: WalkedFile, b: WalkedFile): number {
  return b.mtimeMs - a.mtimeMs || (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0);
}

/** `relative` under a folder shown as `folderDisplay` ("." for the workspace itself). */
export function displayUnder(folderDisplay: string, relative: string): string {
  if (relative === '') return folderDisplay;
  return folderDisplay === '.' ? relative : `${folderDisplay.replace(/\/$/, '')}/${relative}`;
}
