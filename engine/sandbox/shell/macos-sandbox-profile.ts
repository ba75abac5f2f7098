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
 * `-D` parameters rather than spliced into the text, so no path can change the profile.
 */
export function macosSandboxProfile(mounts: readonly ShellMount[]): string {
  const readable = mounts.map((_, index) => `(subpath (param "ROOT_${index}"))`);
  const writable = mounts.flatMap((mount, index) =>
    mount.writable ? [`(subpath (param "ROOT_${index}"))`] : [],
  );
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
    ...(writable.length > 0 ? [`(allow file-write* ${writable.join(' ')})`] : []),
  ].join('\n');
}

export interface SandboxExecRequest {
  confinement: SandboxExecConfinement;
  mounts: readonly ShellMount[];
  command: string;
}

/** sandbox-exec's arguments for one command; macOS checks real paths, so each grant is named by its source. */
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
