import { cp, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { TrustStore } from '../trust/trust-store';
import { trustCreatedOrg } from './trust';

/** The name of the user's copy of the demo org. */
export const DEMO_FOLDER_NAME = 'LeMMing Demo';

/**
 * The user's copy of the demo org under `userFolder`: the existing one (their progress kept), or a new
 * copy when there is none or `fresh` is asked, named "LeMMing Demo 2", "… 3" beside older ones. The
 * shipped folder's own timeline, if one was ever left in it, is not copied. A new copy is trusted by
 * its creator: the app ships it.
 */
export async function prepareDemoOrg(
  source: string,
  userFolder: string,
  fresh: boolean,
  trust: TrustStore,
): Promise<{ path: string; created: boolean }> {
  const base = join(userFolder, DEMO_FOLDER_NAME);
  if (!fresh && (await exists(base))) return { path: base, created: false };
  let target = base;
  for (let copy = 2; await exists(target); copy += 1) target = `${base} ${copy}`;
  await cp(source, target, {
    recursive: true,
    errorOnExist: true,
    force: false,
    filter: (path) => !relative(source, path).split(sep).includes('.lemming'),
  });
  await trustCreatedOrg({ orgPath: target, trust }, 'all');
  return { path: target, created: true };
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}
