/** A key or index on the way from a file's root to one field. */
export type FieldPath = readonly (string | number)[];

/** Something wrong with one field of a tool, before the file it came from is known. */
export interface FieldProblem {
  path: FieldPath;
  message: string;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `request.headers.Authorization`, `allowed_hosts[0]`, `headers["X.Weird key"]`. */
export function formatFieldPath(path: FieldPath): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (PLAIN_KEY.test(key)) text += text === '' ? key : `.${key}`;
    else text += `[${JSON.stringify(key)}]`;
  }
  return text;
}
