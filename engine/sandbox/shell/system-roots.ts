import { lstat, readlink } from 'node:fs/promises';
import type { SystemRoot } from './confinement';

/** Top-level folders that hold programs and libraries besides /usr, which a sandbox must mirror. */
export const SYSTEM_ROOT_PATHS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/** How this host lays out its system folders: merged-/usr systems link them, older ones have real folders. */
export async function scanSystemRoots(paths: readonly string[] = SYSTEM_ROOT_PATHS): Promise<SystemRoot[]> {
  const roots = await Promise.all(
    paths.map(async (path): Promise<SystemRoot | null> => {
      try {
        const info = await lstat(path);
        if (info.isSymbolicLink()) return { kind: 'link', path, target: await readlink(path) };
        return info.isDirectory() ? { kind: 'directory', path } : null;
      } catch {
        return null;
      }
    }),
  );
  return roots.filter((root) => root !== null);
}
