import type {
  Department,
  DepartmentList,
  DepartmentSpend,
  SaveDepartmentInput,
} from '../api/department-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import { fromMicros } from '../credits/credit-amount';
import type { CreditLedger } from '../credits/ledger';
import { readDepartments, saveDepartmentFile } from '../org/departments-folder';
import { discoverAgents } from '../org/discover';
import { issuesFromProblems } from './problems';

/** The org's departments, and the files among them that cannot be read. */
export async function listDepartments(orgPath: string): Promise<IpcResult<DepartmentList>> {
  const read = await readDepartments(orgPath);
  return ok({ departments: read.departments, problems: read.problems, warnings: read.warnings });
}

/** Creates or changes `departments/<name>.json`; every agent named must be one of the org's. */
export async function saveDepartment(
  orgPath: string,
  input: SaveDepartmentInput,
): Promise<IpcResult<Department>> {
  const known = new Set(
    (await discoverAgents(orgPath)).map((agent) => (agent.valid ? agent.resume.name : agent.name)),
  );
  const unknown = input.agents.filter((name) => !known.has(name));
  if (unknown.length > 0)
    return fail(
      'agent_not_found',
      `The org has no agent named ${unknown.map((name) => `"${name}"`).join(', ')}.`,
      unknown.map((name) => ({ path: 'agents', message: `no agent named "${name}"` })),
    );
  const saved = await saveDepartmentFile(orgPath, { ...input, agents: [...new Set(input.agents)] });
  if (!saved.ok)
    return fail(
      'invalid_change',
      `The department was not saved: ${saved.error[0]?.file ?? 'its file'} cannot be read as a department; fix its text first.`,
      issuesFromProblems(saved.error),
    );
  return ok(saved.value);
}

/** What each department's agents spent this UTC day and month, from the credit ledger. */
export async function departmentSpend(
  orgPath: string,
  ledger: CreditLedger,
  now: Date = new Date(),
): Promise<IpcResult<DepartmentSpend[]>> {
  const day = now.toISOString().slice(0, 10);
  const today = ledger.spentSince(`${day}T00:00:00.000Z`);
  const month = ledger.spentSince(`${day.slice(0, 7)}-01T00:00:00.000Z`);
  const sum = (spent: Map<string, number>, agents: readonly string[]) =>
    fromMicros(agents.reduce((total, agent) => total + (spent.get(agent) ?? 0), 0));
  const { departments } = await readDepartments(orgPath);
  return ok(
    departments.map((department) => ({
      department: department.name,
      agents: department.agents,
      spentToday: sum(today, department.agents),
      spentThisMonth: sum(month, department.agents),
    })),
  );
}
