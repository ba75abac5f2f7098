import type { SandboxExecConfinement, ShellMount } from './confinement';

/** What programs on macOS read to start: the system, its libraries and the dynamic linker's caches. */
export const MACOS_SYSTEM_READ_PATHS = [
  '/usr',
  '/bin',
  '/sbin',
  '/System',
  '/Library/Apple',
  '/private/var/db/dyld',
  '/private/var/db/timezone',
  '/opt/homebrew',
  '/usr/local',
] as const;

/**
 * A Seatbelt profile that denies everything (network included) and then allows running programs,
 * reading the system, reading and writing the granted folders, and /dev/null. Folders are passed as
 * `-D` parameters rather than spliced into the text, so no path can change the profile. Writing is
 * decided per folder in the mounts' order (outer first), and the last matching rule wins, so a
 * read-only folder inside a writable one (a protected place) stays read-only, and a writable one
 * inside that (a workspace) writable.
 */
export function macosSandboxProfile(mounts: readonly ShellMount[]): string {
  const readable = mounts.map((_, index) => `(subpath (param "ROOT_${index}"))`);
  const writeRules = mounts.map(
    (mount, index) => `(${mount.writable ? 'allow' : 'deny'} file-write* (subpath (param "ROOT_${index}")))`,
  );
  const insideWritable = (index: number) =>
    mounts
      .slice(0, index)
      .some((outer) => outer.writable && `${mounts[index]!.source}/`.startsWith(`${outer.source}/`));
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow file-read-metadata)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))',
    `(allow file-read* ${MACOS_SYSTEM_READ_PATHS.map((path) => `(subpath "${path}")`).join(' ')})`,
    '(allow file-read* file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/random") (literal "/dev/urandom"))',
    ...(readable.length > 0 ? [`(allow file-read* ${readable.join(' ')})`] : []),
    ...writeRules.filter((_, index) => mounts[index]!.writable || insideWritable(index)),
  ].join('\n');
}

export interface SandboxExecRequest {
  confinement: SandboxExecConfinement;
  mounts: readonly ShellMount[];
  command: string;
}

/**
 * sandbox-exec's arguments for one command. macOS judges every access by the real path it reaches, so
 * each grant is named by its source, and a granted folder swapped for a link after the check leads only
 * where the profile already allows (there is no mount to redirect, unlike bubblewrap).
 */
export function sandboxExecArgs(request: SandboxExecRequest): string[] {
  return [
    ...request.mounts.flatMap((mount, index) => ['-D', `ROOT_${index}=${mount.source}`]),
    '-p',
    macosSandboxProfile(request.mounts),
    '/bin/sh',
    '-c',
    request.command,
  ];
}
