import type {
  Department,
  DepartmentList,
  DepartmentSpend,
  SaveDepartmentInput,
} from '../api/department-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import { fromMicros } from '../credits/credit-amount';
import { readDepartments, saveDepartmentFile } from '../org/departments-folder';
import { discoverAgents } from '../org/discover';
import { dayOf, monthOf } from '../run/budget-standing';
import type { BudgetSpendStore } from '../timeline/budget-spend';
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

/**
 * What each department's agents spent this day and month (the computer's, as budgets count them), from
 * the same query the budgets are decided from.
 */
export async function departmentSpend(
  orgPath: string,
  spending: BudgetSpendStore,
  now: Date = new Date(),
): Promise<IpcResult<DepartmentSpend[]>> {
  const sum = (since: string, agents: readonly string[]) =>
    fromMicros(agents.reduce((total, agent) => total + spending.spentSince(agent, since, 'credits'), 0));
  const day = dayOf(now).start;
  const month = monthOf(now).start;
  const { departments } = await readDepartments(orgPath);
  return ok(
    departments.map((department) => ({
      department: department.name,
      agents: department.agents,
      spentToday: sum(day, department.agents),
      spentThisMonth: sum(month, department.agents),
    })),
  );
}
