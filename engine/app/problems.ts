import { problemPlace, type Problem } from '../api/problem';
import { fail, type IpcIssue, type IpcResult } from '../api/result';

/** File problems as IPC issues: the path says file, line, column and field; the message says what is wrong. */
export function issuesFromProblems(problems: readonly Problem[]): IpcIssue[] {
  return problems.map((problem) => ({ path: problemPlace(problem), message: problem.message }));
}

/** An org config file the use-case needs is not valid: `org_unusable`, with where and why. */
export function invalidConfigFile(file: string, problems: readonly Problem[]): IpcResult<never> {
  return fail('org_unusable', `${file} is not valid.`, issuesFromProblems(problems));
}
