import type { Result } from '../api/result';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fsErrorCode, type PathResolver } from './agent-filesystem';
import type { SandboxLayout } from './sandbox-layout';
import { HOST_FLAVOR, MAX_PATH_BYTES, screenRawPath, type PathFlavor } from './screen-raw-path';

export type PathBase = 'workspace' | 'shared' | 'absolute';

export type CanonicalRefusal = 'invalid_path' | 'dangling_symlink' | 'symlink_loop' | 'unresolvable';

/** Why a path cannot be canonicalized; `reason` follows the quoted path. */
export interface CanonicalFailure {
  code: CanonicalRefusal;
  reason: string;
}

export type CanonicalPath = Result<
  {
    /** What the OS will open: the real path of the longest existing part, then the missing names. */
    path: string;
    /** The same path before links were resolved: which folder the agent's words point into. */
    lexicalPath: string;
    base: PathBase;
  },
  CanonicalFailure
>;

/** The real path, or why it cannot be had. */
export type RealPath = Result<string, CanonicalFailure>;

/**
 * The one canonicalizer every agent path goes through. `raw` is the path as the model wrote it: a
 * path whose first folder is `shared` is in the org's shared folder, another relative path is in the
 * agent's workspace, and an absolute path is taken as it is (the access policy decides whether it is
 * allowed). The result is where the OS will really go, or a refusal with a reason; it never throws.
 */
export async function canonicalize(
  raw: string,
  layout: SandboxLayout,
  fs: PathResolver,
  flavor: PathFlavor = HOST_FLAVOR,
): Promise<CanonicalPath> {
  const screening = screenRawPath(raw, flavor);
  if (!screening.ok) return refuse('invalid_path', screening.error);
  const target = lexicalTarget(raw, layout, flavor);
  if (tooLong(target.path)) return refuse('invalid_path', TOO_LONG);
  const real = await realPathOf(target.path, fs);
  if (!real.ok) return real;
  if (tooLong(real.value)) return refuse('invalid_path', TOO_LONG);
  return { ok: true, value: { path: real.value, lexicalPath: target.path, base: target.base } };
}

/**
 * Where `raw` points before any link is resolved. `..` is collapsed by name, and the file tools then
 * open this collapsed path, never `raw`: `link/../x` is the `x` beside `link`, wherever `link` points.
 * LeMMing's rule is kept for `shared/…`, and two of its defects are fixed: `shared` alone is the shared
 * folder (not `workspace/shared`), and so is `./shared/…`.
 */
export function lexicalTarget(
  raw: string,
  layout: SandboxLayout,
  flavor: PathFlavor = HOST_FLAVOR,
): { path: string; base: PathBase } {
  if (isAbsolute(raw)) return { path: resolve(raw), base: 'absolute' };
  const names = raw.split(flavor === 'win32' ? /[\\/]/ : '/');
  const first = names.findIndex((name) => name !== '.' && name !== '');
  if (names[first] === 'shared')
    return { path: resolve(layout.sharedPath, ...names.slice(first + 1)), base: 'shared' };
  return { path: resolve(layout.workspacePath, raw), base: 'workspace' };
}

/**
 * The real path of the longest part of `absolutePath` that exists, with the missing names appended.
 * The first missing name must not be a link whose target is missing (a dangling link): writing
 * through it would create its target, wherever that is.
 */
export async function realPathOf(absolutePath: string, fs: PathResolver): Promise<RealPath> {
  const missing: string[] = [];
  let existing = absolutePath;
  for (;;) {
    try {
      const real = await fs.realpath(existing);
      return await withMissingNames(real, missing, fs);
    } catch (error) {
      const code = fsErrorCode(error);
      if (code === 'ELOOP')
        return refuse('symlink_loop', 'goes through symbolic links that point at each other');
      const parent = dirname(existing);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing)
        return refuse('unresolvable', `cannot be resolved (${code ?? describe(error)})`);
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
}

async function withMissingNames(
  real: string,
  missing: readonly string[],
  fs: PathResolver,
): Promise<RealPath> {
  const [first] = missing;
  if (first !== undefined) {
    const entry = await fs.stat(join(real, first)).catch(() => null);
    if (entry?.kind === 'symlink')
      return refuse(
        'dangling_symlink',
        `goes through the symbolic link "${first}", whose target does not exist`,
      );
  }
  return { ok: true, value: join(real, ...missing) };
}

const TOO_LONG = `is longer than ${MAX_PATH_BYTES} bytes once resolved`;

function tooLong(path: string): boolean {
  return Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES;
}

function refuse(code: CanonicalRefusal, reason: string): { ok: false; error: CanonicalFailure } {
  return { ok: false, error: { code, reason } };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
