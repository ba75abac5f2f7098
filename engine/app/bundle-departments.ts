import type { Department } from '../api/department-schemas';
import { readDepartments } from '../org/departments-folder';
import { discoverAgents } from '../org/discover';

/** The org's departments as a bundle carries them (a file that cannot be read travels as a plain file). */
export async function bundleDepartments(orgPath: string): Promise<Department[]> {
  return (await readDepartments(orgPath)).departments;
}

/**
 * The agent folders of a department: its agents, as the graph and the timeline group them (named as its
 * file lists them, or, for LeMMing's files, by their folders).
 */
export async function departmentMembers(orgPath: string, department: Department): Promise<string[]> {
  const names = new Set(department.agents);
  return (await discoverAgents(orgPath))
    .filter((agent) => names.has(agent.folder) || names.has(agent.valid ? agent.resume.name : agent.name))
    .map((agent) => agent.folder);
}
