import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleDepartment } from '../api/bundle-schemas';
import { discoverAgents } from '../org/discover';
import { AGENTS_FOLDER } from '../org/org-layout';

/** Where LeMMing keeps department metadata: `departments/<name>.json`. */
export const DEPARTMENTS_FOLDER = 'departments';

/**
 * The org's departments as LeMMing writes them (`departments/<name>.json`, name and description
 * required); a file that is not such an object is skipped, and a bundle carries it as a plain file.
 */
export async function readDepartments(orgPath: string): Promise<BundleDepartment[]> {
  const names = await readdir(join(orgPath, DEPARTMENTS_FOLDER)).catch(() => [] as string[]);
  const departments: BundleDepartment[] = [];
  for (const name of names.filter((file) => file.endsWith('.json')).sort()) {
    const file = `${DEPARTMENTS_FOLDER}/${name}`;
    try {
      const json: unknown = JSON.parse(await readFile(join(orgPath, DEPARTMENTS_FOLDER, name), 'utf8'));
      if (json && typeof json === 'object' && typeof (json as { name?: unknown }).name === 'string')
        departments.push({ ...(json as { name: string }), file });
    } catch {
      continue;
    }
  }
  return departments;
}

/**
 * The agent folders of a department, by LeMMing's rule: an agent belongs to a department when the
 * department's name is part of its folder's path (`agents/research_lead` is in “research”).
 */
export async function departmentMembers(orgPath: string, department: string): Promise<string[]> {
  return (await discoverAgents(orgPath))
    .map((agent) => agent.folder)
    .filter((folder) => `${AGENTS_FOLDER}/${folder}`.includes(department));
}
