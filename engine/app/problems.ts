import type { IpcIssue } from '../api/result';
import type { AgentProblem } from '../api/schemas';

/** File problems as IPC issues: the path says file, line and field; the message says what is wrong. */
export function issuesFromProblems(problems: readonly AgentProblem[]): IpcIssue[] {
  return problems.map((problem) => ({
    path: `${problem.file}${problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : ''}${problem.field ? ` ${problem.field}` : ''}`,
    message: problem.message,
  }));
}
