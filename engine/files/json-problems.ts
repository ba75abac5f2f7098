import type { z } from 'zod';
import type { Problem } from '../api/problem';
import type { JsonSyntaxError } from './json-text';
import { locatePath, type JsonNode, type JsonPath } from './json-tree';

/** A parsed document together with its text and span tree, so problems can point at lines. */
export interface LocatedJson {
  text: string;
  root: JsonNode;
}

export function syntaxProblem(file: string, error: JsonSyntaxError): Problem {
  return { file, field: '', message: error.message, line: error.line, column: error.column };
}

export function fileProblem(file: string, message: string, field = ''): Problem {
  return { file, field, message };
}

/** `permissions.tools.0`: the dotted form Problem.field uses. */
export function dottedPath(path: JsonPath | readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * Schema issues as problems a person can act on: a missing field says so (zod only says it expected
 * something), and each problem points at the field's line, or its parent's when the field is missing.
 */
export function problemsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  file: string,
  raw: unknown,
  located: LocatedJson | null,
  describe: (message: string) => string = (message) => message,
): Problem[] {
  return issues.map((issue) => {
    const path = issue.path.filter((step): step is string | number => typeof step !== 'symbol');
    const field = dottedPath(path);
    // zod says only what type it expected of a field that is not there; a rule of ours says it in its own words.
    const missing = !hasPath(raw, path) && issue.code !== 'custom';
    const message = missing ? `missing required field "${field}"` : issue.message;
    const where = located ? locatePath(located.text, located.root, path) : {};
    return { file, field, message: describe(message), ...where };
  });
}

function hasPath(value: unknown, path: JsonPath): boolean {
  let node = value;
  for (const step of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, step)) return false;
    node = (node as Record<string | number, unknown>)[step];
  }
  return true;
}
