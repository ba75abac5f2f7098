import type { Result } from '../../../api/result';
import { quote, type AccessAction } from '../../../sandbox/access-policy';
import { fsErrorCode, type FileInfo } from '../../../sandbox/agent-filesystem';
import { SECURITY_ERROR_CODES, type AgentSandbox } from '../../../sandbox/agent-sandbox';

/**
 * Why a path could not be used. `refused`: the sandbox does not let the agent go there (its message
 * says why); `changed`: a link appeared on the way after the check, so nothing was done.
 */
export type AccessProblem =
  'refused' | 'not_found' | 'directory' | 'not_a_file' | 'not_a_directory' | 'too_large' | 'changed' | 'io';

export interface AccessFailure {
  problem: AccessProblem;
  /** A sentence naming the path as the agent wrote it. */
  message: string;
  /** The path as the agent wrote it. */
  requestedPath: string;
}

export interface CheckedPath {
  /** The canonical path, for the AgentFilesystem. */
  path: string;
  /** The path as the agent would write it. */
  display: string;
}

/** The sandbox's verdict on `raw` for `action`, as a checked path or a failure. */
export async function checkPath(
  sandbox: AgentSandbox,
  raw: string,
  action: AccessAction,
  tool: string,
): Promise<Result<CheckedPath, AccessFailure>> {
  const resolved = await sandbox.resolve(raw, action, { tool });
  if (resolved.ok) return { ok: true, value: { path: resolved.value.path, display: resolved.value.display } };
  const { code, message } = resolved.error;
  return {
    ok: false,
    error: { problem: SECURITY_ERROR_CODES.has(code) ? 'refused' : 'io', message, requestedPath: raw },
  };
}

export type FileBytes = CheckedPath & { bytes: Uint8Array; info: FileInfo };

/**
 * Reads a whole file the agent may read, up to `maxBytes`. The read goes through the sandbox's
 * AgentFilesystem on the checked path, which follows no link.
 */
export async function readFileBytes(
  sandbox: AgentSandbox,
  raw: string,
  tool: string,
  maxBytes: number,
): Promise<Result<FileBytes, AccessFailure>> {
  const checked = await checkPath(sandbox, raw, 'read', tool);
  if (!checked.ok) return checked;
  const target = checked.value;
  try {
    const info = await sandbox.fs.stat(target.path);
    if (!info) return failure('not_found', raw, 'does not exist');
    if (info.kind === 'directory') return failure('directory', raw, 'is a folder, not a file');
    if (info.kind !== 'file') return failure('not_a_file', raw, 'is not a regular file');
    if (info.size > maxBytes)
      return failure('too_large', raw, `is ${info.size} bytes; the limit is ${maxBytes} bytes`);
    const bytes = sandbox.fs.readBinaryFile
      ? await sandbox.fs.readBinaryFile(target.path, { maxBytes })
      : new TextEncoder().encode(await sandbox.fs.readTextFile(target.path, { maxBytes }));
    return { ok: true, value: { ...target, bytes, info } };
  } catch (error) {
    return { ok: false, error: fromFsError(error, raw, maxBytes) };
  }
}

export type CheckedFolder = CheckedPath & { info: FileInfo };

/** A folder (or, with `allowFile`, a file) the agent may list or search, checked to exist. */
export async function checkFolder(
  sandbox: AgentSandbox,
  raw: string,
  action: 'list' | 'search',
  tool: string,
  options: { allowFile?: boolean } = {},
): Promise<Result<CheckedFolder, AccessFailure>> {
  const checked = await checkPath(sandbox, raw, action, tool);
  if (!checked.ok) return checked;
  const target = checked.value;
  try {
    const info = await sandbox.fs.stat(target.path);
    if (!info) return failure('not_found', raw, 'does not exist');
    if (info.kind === 'directory' || (options.allowFile && info.kind === 'file'))
      return { ok: true, value: { ...target, info } };
    return failure('not_a_directory', raw, 'is not a folder');
  } catch (error) {
    return { ok: false, error: fromFsError(error, raw, 0) };
  }
}

/** An error thrown by an AgentFilesystem as a failure naming the agent's path. */
export function fromFsError(error: unknown, raw: string, maxBytes: number): AccessFailure {
  switch (fsErrorCode(error)) {
    case 'ENOENT':
    case 'ENOTDIR':
      return accessFailure('not_found', raw, 'does not exist');
    case 'EISDIR':
      return accessFailure('directory', raw, 'is a folder, not a file');
    case 'ENOTFILE':
      return accessFailure('not_a_file', raw, 'is not a regular file');
    case 'EFBIG':
      return accessFailure('too_large', raw, `is larger than the limit of ${maxBytes} bytes`);
    case 'ESYMLINK':
    case 'ELOOP':
      return accessFailure(
        'changed',
        raw,
        'changed while it was being used (a symbolic link or a moved folder appeared in the way), so nothing was done',
      );
    default:
      return accessFailure('io', raw, `could not be used (${describeFsError(error)})`);
  }
}

function failure(problem: AccessProblem, raw: string, reason: string): { ok: false; error: AccessFailure } {
  return { ok: false, error: accessFailure(problem, raw, reason) };
}

function accessFailure(problem: AccessProblem, raw: string, reason: string): AccessFailure {
  return { problem, message: `${quote(raw)} ${reason}`, requestedPath: raw };
}

/** The error's code when it has one: file system messages end with the host path, which stays out. */
function describeFsError(error: unknown): string {
  return fsErrorCode(error) ?? (error instanceof Error ? error.name : 'unknown error');
}
