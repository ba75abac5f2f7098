import { z } from 'zod';

/** Something wrong in one file, located as precisely as the file allows. */
export const Problem = z.object({
  /** The file the problem is in, relative to the org folder. */
  file: z.string(),
  /** Dotted field path inside the file, or empty when the whole file is at fault. */
  field: z.string(),
  message: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});
export type Problem = z.infer<typeof Problem>;

type Located = Pick<Problem, 'file' | 'line' | 'column'> & { field?: string };

/** `file:line:column`, with the line and column when they are known. */
export function problemLocation(problem: Located): string {
  const line = problem.line === undefined ? '' : `:${problem.line}`;
  const column = problem.line !== undefined && problem.column !== undefined ? `:${problem.column}` : '';
  return `${problem.file}${line}${column}`;
}

/** `file:line:column (field)`: the location and the field, when there is one. */
export function problemPlace(problem: Located): string {
  return `${problemLocation(problem)}${problem.field ? ` (${problem.field})` : ''}`;
}

/** `file:line:column (field): message`, the one way a problem is written for people. */
export function formatProblem(problem: Located & { message: string }): string {
  return `${problemPlace(problem)}: ${problem.message}`;
}
