import { lstat, mkdir, mkdtemp, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { BundleManifest } from '../api/bundle-schemas';
import type { Result } from '../api/result';
import { AGENTS_FOLDER } from '../org/org-layout';
import type { BundleLimits } from './bundle-limits';
import { readBundle } from './bundle-reader';

/** Where a verified bundle's files go: a new folder, or beside what an existing org folder has. */
export type UnpackTarget = { kind: 'new'; folder: string } | { kind: 'into'; folder: string };

export interface UnpackRefusal {
  reason: string;
  /** Paths (relative to the org) the bundle has that the org already has: nothing is overwritten. */
  clashes?: string[];
}

/**
 * Unpacks a bundle only once every check has passed (docs/BUNDLE-FORMAT.md): its files are inflated and
 * checked into a temporary folder beside the target, then moved in. Refused, nothing is left behind:
 * neither the target nor its parent folder changes. Into an existing org, a file or agent folder the
 * org already has is a clash, and the whole bundle is refused with the list.
 */
export async function unpackBundle(
  file: string,
  target: UnpackTarget,
  limits?: BundleLimits,
): Promise<Result<{ manifest: BundleManifest; folder: string; written: string[] }, UnpackRefusal>> {
  const folder = resolve(target.folder);
  const parent = dirname(folder);
  if (!(await isFolder(parent)))
    return { ok: false, error: { reason: `the folder ${parent} does not exist` } };
  if (target.kind === 'new' && (await lstat(folder).catch(() => null)) && !(await isEmptyFolder(folder)))
    return { ok: false, error: { reason: `${folder} already exists and is not empty` } };
  if (target.kind === 'into' && !(await isFolder(folder)))
    return { ok: false, error: { reason: `the org folder ${folder} does not exist` } };
  const scratch = await mkdtemp(join(parent, `.${basename(folder)}.importing-`));
  try {
    const read = await readBundle(file, { into: scratch, ...(limits ? { limits } : {}) });
    if (!read.ok) return { ok: false, error: { reason: read.error } };
    const written = read.value.files.map((listed) => listed.path);
    if (target.kind === 'new') {
      if (await lstat(folder).catch(() => null)) await rmdir(folder);
      await rename(scratch, folder);
      return { ok: true, value: { manifest: read.value, folder, written } };
    }
    const units = unitsOf(written);
    const clashes: string[] = [];
    for (const unit of units)
      if (await lstat(join(folder, ...unit.split('/'))).catch(() => null)) clashes.push(unit);
    if (clashes.length > 0)
      return {
        ok: false,
        error: { reason: `the org already has ${clashes.map((clash) => `"${clash}"`).join(', ')}`, clashes },
      };
    for (const unit of units) {
      const to = join(folder, ...unit.split('/'));
      await mkdir(dirname(to), { recursive: true });
      await rename(join(scratch, ...unit.split('/')), to);
    }
    return { ok: true, value: { manifest: read.value, folder, written } };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What moves in as one piece: a whole agent folder (`agents/ada`), or a single file elsewhere. */
function unitsOf(paths: readonly string[]): string[] {
  const units = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    units.add(parts[0] === AGENTS_FOLDER && parts.length > 2 ? parts.slice(0, 2).join('/') : path);
  }
  return [...units].sort();
}

async function isFolder(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null))?.isDirectory() ?? false;
}

async function isEmptyFolder(path: string): Promise<boolean> {
  return (await isFolder(path)) && (await readdir(path)).length === 0;
}
