import type { AgentProblem } from '../api/schemas';

/** Where a problem is, as a person opens it: `file:line:column (field)`. */
export function problemLocation(problem: AgentProblem): string {
  const position = problem.line !== undefined ? `:${problem.line}:${problem.column}` : '';
  return `${problem.file}${position}${problem.field ? ` (${problem.field})` : ''}`;
}
