import { FIRST_PLACE_FD, type PinnedPlace } from '../../processes/child-starters';
import type { BubblewrapConfinement, ShellMount } from './confinement';

/** The most a hardened sandbox's private /tmp may hold. */
export const SANDBOX_TMP_BYTES = 64 * 1024 * 1024;

/** What programs need from /etc to start and tell the time; nothing that names the host or its users. */
export const SYSTEM_ETC_FILES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
] as const;

export interface BubblewrapRequest {
  confinement: BubblewrapConfinement;
  mounts: readonly ShellMount[];
  workingDirectory: string;
  env: Readonly<Record<string, string>>;
  command: string;
}

/**
 * bwrap's arguments for one command: every namespace unshared (so no network), no capabilities, the
 * system's programs read-only, a private /proc, /dev and /tmp, the granted folders and nothing else of
 * the user's files, a read-only root, a clean environment, and a new session (no terminal injection).
 * Where bwrap binds open places, the n-th mount comes from the descriptor FIRST_PLACE_FD + n, which the
 * program starter opens and checks (`bubblewrapPlaces`); an older bwrap mounts each by its path.
 */
export function bubblewrapArgs(request: BubblewrapRequest): string[] {
  const { confinement } = request;
  return [
    '--unshare-all',
    ...(confinement.hardened ? ['--unshare-user', '--disable-userns'] : []),
    '--cap-drop',
    'ALL',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/usr',
    '/usr',
    ...confinement.systemRoots.flatMap((root) =>
      root.kind === 'link' ? ['--symlink', root.target, root.path] : ['--ro-bind', root.path, root.path],
    ),
    ...SYSTEM_ETC_FILES.flatMap((path) => ['--ro-bind-try', path, path]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    ...(confinement.hardened ? ['--size', String(SANDBOX_TMP_BYTES)] : []),
    '--tmpfs',
    '/tmp',
    ...request.mounts.flatMap((mount, index) =>
      confinement.bindsOpenPlaces
        ? [mount.writable ? '--bind-fd' : '--ro-bind-fd', String(FIRST_PLACE_FD + index), mount.target]
        : [mount.writable ? '--bind-try' : '--ro-bind-try', mount.source, mount.target],
    ),
    '--remount-ro',
    '/',
    '--chdir',
    request.workingDirectory,
    '--clearenv',
    ...Object.entries(request.env).flatMap(([name, value]) => ['--setenv', name, value]),
    '/bin/sh',
    '-c',
    request.command,
  ];
}

/** What the program starter opens for `bubblewrapArgs`, in the order its descriptors are numbered. */
export function bubblewrapPlaces(
  confinement: BubblewrapConfinement,
  mounts: readonly ShellMount[],
): PinnedPlace[] {
  return confinement.bindsOpenPlaces
    ? mounts.map(({ source, device, inode }) => ({ path: source, device, inode }))
    : [];
}
