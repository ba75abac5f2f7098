import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fail, ok, type IpcResult } from '../api/result';
import type { TrustStore } from '../trust/trust-store';
import { initOrg } from './init-org';
import { trustCreatedOrg } from './trust';
import { issuesFromProblems } from './problems';

/**
 * Makes an existing folder that is not an org yet a new org, as `lemming init` does (adding only what
 * is missing, overwriting nothing). Only on the user's word: opening such a folder is refused and the
 * app asks first. A folder that already is an org is left as it is. The new org is trusted by its
 * creator, unless files it kept name programs, addresses or secrets (see trustCreatedOrg).
 */
export async function createOrgIn(path: string, trust: TrustStore): Promise<IpcResult<{ path: string }>> {
  const orgPath = resolve(path);
  const folder = await stat(orgPath).catch(() => null);
  if (!folder?.isDirectory()) return fail('org_not_found', `No folder at ${orgPath}.`);
  if (await stat(join(orgPath, 'agents')).catch(() => null))
    return fail('already_exists', `${orgPath} is already an org: it has an “agents” folder.`);
  const created = await initOrg(orgPath, { force: true });
  if (!created.ok)
    return fail('invalid_change', `No org was created in ${orgPath}.`, issuesFromProblems(created.error));
  await trustCreatedOrg({ orgPath: created.value.path, trust }, created.value.created);
  return ok({ path: created.value.path });
}
