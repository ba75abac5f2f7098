import { problemPlace, type Problem } from '../api/problem';
import type { IpcIssue } from '../api/result';

/** File problems as IPC issues: the path says file, line, column and field; the message says what is wrong. */
export function issuesFromProblems(problems: readonly Problem[]): IpcIssue[] {
  return problems.map((problem) => ({ path: problemPlace(problem), message: problem.message }));
}
