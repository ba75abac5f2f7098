import type { IpcError } from '../api/result';

/** A use-case's failure as the CLI prints it: the message, each issue on its own line, then the fix. */
export function formatFailure(error: IpcError): string {
  return [
    error.message,
    ...(error.issues ?? []).map((issue) => `  ${issue.path}: ${issue.message}`),
    ...(error.fix ? [`fix: ${error.fix}`] : []),
  ].join('\n');
}
