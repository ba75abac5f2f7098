import { dirname } from 'node:path';
import type { Result } from '../api/result';
import { fsErrorCode, type AgentFilesystem, type DirEntry, type FileInfo } from './agent-filesystem';
import {
  createAccessPolicy,
  quote,
  type AccessAction,
  type AccessHook,
  type AccessPolicy,
  type FileAccess,
} from './access-policy';
import { canonicalize } from './canonicalize';
import { agentLayout, displayPath, type SandboxLayout } from './sandbox-layout';

export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;
export const DEFAULT_MAX_WRITE_BYTES = 1024 * 1024;

export type SandboxErrorCode =
  | 'invalid_path'
  | 'outside'
  | 'symlink_escape'
  | 'dangling_symlink'
  | 'symlink_loop'
  | 'denied'
  | 'changed'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'too_large'
  | 'not_text'
  | 'io';

/** Codes that mean "the agent may not go there", as opposed to "there is nothing usable there". */
export const SECURITY_ERROR_CODES: ReadonlySet<SandboxErrorCode> = new Set([
  'invalid_path',
  'outside',
  'symlink_escape',
  'dangling_symlink',
  'symlink_loop',
  'denied',
  'changed',
]);

export interface SandboxError {
  code: SandboxErrorCode;
  /** A sentence naming the path as the agent wrote it and saying why. */
  message: string;
  /** The path as the agent wrote it. */
  requestedPath: string;
}

export type SandboxFailure = { ok: false; error: SandboxError };

export interface SandboxPath {
  /** The canonical path that was checked and used. */
  path: string;
  /** The same path as the agent would write it (see displayPath). */
  display: string;
}

export type SandboxResult<T extends object = object> = Result<SandboxPath & T, SandboxError>;

export interface SandboxEntry extends DirEntry {
  display: string;
}

export interface OperationOptions {
  /** The tool doing this, for the access hook. */
  tool?: string;
}

export interface AgentSandboxOptions {
  orgPath: string;
  /** `<org>/agents/<folder>`. */
  agentDir: string;
  /** The resume's `permissions.file_access` (absent: workspace and shared/). */
  fileAccess?: FileAccess | undefined;
  fs: AgentFilesystem;
  checkAccess?: AccessHook;
  maxReadBytes?: number;
  maxWriteBytes?: number;
}

/**
 * Everything an agent's file tools may do, each operation in the same order: canonicalize the path,
 * check it against the agent's folders (and the user's hook), then do the I/O through the
 * AgentFilesystem, which refuses to follow a link that appeared since the check. Results are values;
 * nothing here throws.
 */
export class AgentSandbox {
  readonly layout: SandboxLayout;
  readonly policy: AccessPolicy;
  readonly fs: AgentFilesystem;
  readonly maxReadBytes: number;
  readonly maxWriteBytes: number;

  constructor(options: AgentSandboxOptions) {
    this.layout = agentLayout(options.orgPath, options.agentDir);
    this.fs = options.fs;
    this.policy = createAccessPolicy({
      layout: this.layout,
      fileAccess: options.fileAccess,
      fs: options.fs,
      hook: options.checkAccess,
    });
    this.maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
    this.maxWriteBytes = options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES;
  }

  /** Canonicalizes `path` and checks `action` on it, without touching the file: for tools that do their own I/O. */
  resolve(path: string, action: AccessAction, options: OperationOptions = {}): Promise<SandboxResult> {
    return this.authorize(path, action, options);
  }

  async read(
    path: string,
    options: OperationOptions = {},
  ): Promise<SandboxResult<{ content: string; bytes: number }>> {
    const target = await this.authorize(path, 'read', options);
    if (!target.ok) return target;
    const place = target.value;
    return this.attempt(path, async () => {
      const info = await this.fs.stat(place.path);
      if (!info) return failure('not_found', path, 'does not exist');
      if (info.kind === 'directory') return failure('not_a_file', path, 'is a folder, not a file');
      if (info.kind !== 'file') return failure('not_a_file', path, 'is not a regular file');
      if (info.size > this.maxReadBytes)
        return failure(
          'too_large',
          path,
          `is ${info.size} bytes; the limit for reading is ${this.maxReadBytes} bytes`,
        );
      const content = await this.fs.readTextFile(place.path, { maxBytes: this.maxReadBytes });
      return done({ ...place, content, bytes: Buffer.byteLength(content, 'utf8') });
    });
  }

  /** Replaces or creates the file, creating missing folders on the way (they are inside what the agent may write). */
  async write(
    path: string,
    text: string,
    options: OperationOptions = {},
  ): Promise<SandboxResult<{ bytes: number; created: boolean }>> {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > this.maxWriteBytes)
      return failure(
        'too_large',
        path,
        `would be ${bytes} bytes; the limit for writing is ${this.maxWriteBytes} bytes`,
      );
    const target = await this.authorize(path, 'write', options);
    if (!target.ok) return target;
    const place = target.value;
    return this.attempt(path, async () => {
      await this.fs.ensureDir(dirname(place.path));
      const existing = await this.fs.stat(place.path);
      if (existing?.kind === 'directory') return failure('not_a_file', path, 'is a folder, not a file');
      await this.fs.writeTextFile(place.path, text);
      return done({ ...place, bytes, created: existing === null });
    });
  }

  async list(
    path: string,
    options: OperationOptions = {},
  ): Promise<SandboxResult<{ entries: SandboxEntry[] }>> {
    const target = await this.authorize(path, 'list', options);
    if (!target.ok) return target;
    const place = target.value;
    return this.attempt(path, async () => {
      const info = await this.fs.stat(place.path);
      if (!info) return failure('not_found', path, 'does not exist');
      if (info.kind !== 'directory') return failure('not_a_directory', path, 'is not a folder');
      const entries = await this.fs.readDir(place.path);
      const inside = (name: string) => (place.display === '.' ? name : `${place.display}/${name}`);
      return done({ ...place, entries: entries.map((entry) => ({ ...entry, display: inside(entry.name) })) });
    });
  }

  async delete(path: string, options: OperationOptions = {}): Promise<SandboxResult> {
    const target = await this.authorize(path, 'delete', options);
    if (!target.ok) return target;
    const place = target.value;
    return this.attempt(path, async () => {
      const info = await this.fs.stat(place.path);
      if (!info) return failure('not_found', path, 'does not exist');
      if (info.kind === 'directory')
        return failure('not_a_file', path, 'is a folder; only files can be deleted');
      await this.fs.deleteFile(place.path);
      return target;
    });
  }

  async mkdir(path: string, options: OperationOptions = {}): Promise<SandboxResult<{ created: boolean }>> {
    const target = await this.authorize(path, 'write', options);
    if (!target.ok) return target;
    const place = target.value;
    return this.attempt<{ created: boolean }>(path, async () => {
      const info = await this.fs.stat(place.path);
      if (info?.kind === 'directory') return done({ ...place, created: false });
      if (info) return failure('not_a_directory', path, 'already exists and is not a folder');
      await this.fs.ensureDir(place.path);
      return done({ ...place, created: true });
    });
  }

  async stat(
    path: string,
    options: OperationOptions = {},
  ): Promise<SandboxResult<{ info: FileInfo | null }>> {
    const target = await this.authorize(path, 'read', options);
    if (!target.ok) return target;
    const place = target.value;
    return this.attempt(path, async () => done({ ...place, info: await this.fs.stat(place.path) }));
  }

  private async authorize(
    path: string,
    action: AccessAction,
    options: OperationOptions,
  ): Promise<SandboxResult> {
    const canonical = await canonicalize(path, this.layout, this.fs);
    if (!canonical.ok) {
      const { code, reason } = canonical.error;
      return failure(code === 'unresolvable' ? 'io' : code, path, reason);
    }
    const decision = await this.policy.checkAccess(action, canonical.value.path, {
      lexicalPath: canonical.value.lexicalPath,
      requestedPath: path,
      ...(options.tool === undefined ? {} : { tool: options.tool }),
    });
    if (!decision.allowed) return failure(decision.code, path, decision.reason);
    return done({
      path: canonical.value.path,
      display: displayPath(this.layout, canonical.value.lexicalPath),
    });
  }

  /** Runs the I/O of an operation, turning a file system error into a failure that names the agent's path. */
  private async attempt<T extends object>(
    path: string,
    operation: () => Promise<SandboxResult<T>>,
  ): Promise<SandboxResult<T>> {
    try {
      return await operation();
    } catch (error) {
      return fromFsError(error, path, this.maxReadBytes);
    }
  }
}

function fromFsError(error: unknown, path: string, maxReadBytes: number): SandboxFailure {
  switch (fsErrorCode(error)) {
    case 'ENOENT':
      return failure('not_found', path, 'does not exist');
    case 'ENOTDIR':
      return failure('not_found', path, 'does not exist (a file is in the way where a folder should be)');
    case 'EISDIR':
      return failure('not_a_file', path, 'is a folder, not a file');
    case 'ENOTFILE':
      return failure('not_a_file', path, 'is not a regular file');
    case 'EFBIG':
      return failure('too_large', path, `is larger than the limit for reading (${maxReadBytes} bytes)`);
    case 'EILSEQ':
      return failure('not_text', path, 'is not UTF-8 text');
    case 'ESYMLINK':
    case 'ELOOP':
      return failure(
        'changed',
        path,
        'changed while it was being used (a symbolic link or a moved folder appeared in the way), so the operation was stopped',
      );
    default:
      return failure('io', path, `could not be used (${describeError(error)})`);
  }
}

/** The error's code when it has one: Node's messages end with a host path the agent has no use for. */
function describeError(error: unknown): string {
  return fsErrorCode(error) ?? (error instanceof Error ? error.message : String(error));
}

function done<T extends SandboxPath>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

function failure(code: SandboxErrorCode, path: string, reason: string): SandboxFailure {
  return { ok: false, error: { code, message: `${quote(path)} ${reason}`, requestedPath: path } };
}
