import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fail, ok, type IpcResult } from '../api/result';
import { DEFAULT_ORG_CONFIG, updateOrgConfig } from '../org/org-config-file';
import { issuesFromProblems } from './problems';

/**
 * Makes an existing folder an empty org, as LeMMing lays one out: an `agents` folder and
 * lemming/config/org_config.json with LeMMing's defaults. Only on the user's word (the app asks first);
 * a folder that already is an org is left as it is.
 */
export async function createOrgIn(path: string): Promise<IpcResult<{ path: string }>> {
  const orgPath = resolve(path);
  const folder = await stat(orgPath).catch(() => null);
  if (!folder?.isDirectory()) return fail('org_not_found', `No folder at ${orgPath}.`);
  const agents = join(orgPath, 'agents');
  if (await stat(agents).catch(() => null))
    return fail('already_exists', `${orgPath} is already an org: it has an “agents” folder.`);
  await mkdir(agents);
  const config = await updateOrgConfig(orgPath, {
    base_turn_seconds: DEFAULT_ORG_CONFIG.base_turn_seconds,
  });
  if (!config.ok)
    return fail('invalid_change', 'The org’s settings file could not be written.', issuesFromProblems(config.problems));
  return ok({ path: orgPath });
}
