import type { IpcError } from '../../../engine/api';

/** An IPC error in words: the message, where each issue is, and what to do about it. */
export function describeError(error: IpcError): string {
  const issues = (error.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`);
  return [error.message, ...issues, ...(error.fix ? [error.fix] : [])].join('\n');
}
