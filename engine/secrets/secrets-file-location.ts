import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Result } from '../api/result';
import { AGENTS_FOLDER, agentPaths, inOrg } from '../org/org-layout';

/** The secrets file's path, or why it is refused there. */
export type SecretsFileLocation = Result<string, string>;

/**
 * Accepts a secrets file only outside every org folder: an agent's file tools can be granted any path
 * inside its org (file_access.allow_read), so a secrets file there could be read by an agent. The check
 * is on real paths (links resolved), against the orgs given and against any folder above the file
 * that looks like an org.
 */
export async function checkSecretsFileLocation(
  path: string,
  orgPaths: readonly string[] = [],
): Promise<SecretsFileLocation> {
  const given = resolve(path);
  const info = await stat(given).catch(() => null);
  if (info?.isDirectory())
    return {
      ok: false,
      error: `${given} is a folder; give the path of a secrets file, e.g. ${join(given, 'lemming-secrets.json')}`,
    };
  // A link whose target does not exist yet has no real path; where it points is checked too.
  const linkTarget = await readlink(given).catch(() => null);
  const places = [
    await realPathOf(given),
    ...(linkTarget === null ? [] : [await realPathOf(resolve(dirname(given), linkTarget))]),
  ];
  const realOrgs = await Promise.all(orgPaths.map((org) => realPathOf(resolve(org))));
  for (const place of places) {
    const org = realOrgs.find((realOrg) => isInside(realOrg, place)) ?? (await enclosingOrg(place));
    if (org !== null) return { ok: false, error: insideOrgMessage(given, org) };
  }
  return { ok: true, value: given };
}

async function enclosingOrg(path: string): Promise<string | null> {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    if (await looksLikeOrg(folder)) return folder;
    if (dirname(folder) === folder) return null;
  }
}

function insideOrgMessage(file: string, org: string): string {
  return `The secrets file ${file} is inside the org folder ${org}: an agent allowed to read files there could read every secret. Keep it outside any org folder, e.g. in your home folder (~/.lemming-secrets.json).`;
}

/** The real path of the longest existing prefix, with the rest appended (the file may not exist yet). */
async function realPathOf(path: string): Promise<string> {
  const rest: string[] = [];
  for (let current = path; ; current = dirname(current)) {
    const real = await realpath(current).catch(() => null);
    if (real !== null) return join(real, ...rest.reverse());
    if (dirname(current) === current) return path;
    rest.push(basename(current));
  }
}

function isInside(folder: string, path: string): boolean {
  const fromFolder = relative(folder, path);
  return fromFolder === '' || (!fromFolder.startsWith('..') && !isAbsolute(fromFolder));
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

/**
 * An org has LeMMing's config folder or an agent's resume.json. (Not a `.lemming` folder: users keep
 * `~/.lemming/` for their own settings, and their home folder is not an org.)
 */
async function looksLikeOrg(folder: string): Promise<boolean> {
  if (await isFolder(join(folder, 'lemming', 'config'))) return true;
  const agents = await readdir(join(folder, AGENTS_FOLDER), { withFileTypes: true }).catch(() => []);
  for (const agent of agents) {
    if (!agent.isDirectory()) continue;
    if ((await stat(inOrg(folder, agentPaths(agent.name).resume)).catch(() => null))?.isFile()) return true;
  }
  return false;
}
