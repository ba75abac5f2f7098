import { constants } from 'node:fs';
import { access, lstat, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BubblewrapConfinement, Confinement, SandboxExecConfinement } from './confinement';
import { runShellCommand } from './run-shell-command';
import { scanSystemRoots } from './system-roots';

export interface ConfinementOptions {
  platform?: NodeJS.Platform;
  /** The bwrap to use; by default the first of the usual system locations that exists. */
  bwrapPath?: string;
  sandboxExecPath?: string;
}

export const BWRAP_LOCATIONS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'] as const;
export const SANDBOX_EXEC_PATH = '/usr/bin/sandbox-exec';

const PROBE_TIMEOUT_MS = 15_000;
const PROBE_TEXT = 'confined';

const detected = new Map<string, Promise<Confinement>>();

/**
 * How shell commands can be confined here: bubblewrap on Linux, sandbox-exec on macOS, or none (with the
 * reason). A sandbox counts only after a real command has run inside it, since an installed bwrap can
 * still be unusable (no user namespaces, a restrictive security module). The answer is kept per options.
 */
export function detectConfinement(options: ConfinementOptions = {}): Promise<Confinement> {
  const platform = options.platform ?? process.platform;
  const key = JSON.stringify([platform, options.bwrapPath ?? null, options.sandboxExecPath ?? null]);
  let found = detected.get(key);
  if (!found) {
    found = detect(platform, options);
    detected.set(key, found);
  }
  return found;
}

async function detect(platform: NodeJS.Platform, options: ConfinementOptions): Promise<Confinement> {
  if (platform === 'linux') return detectBubblewrap(options.bwrapPath);
  if (platform === 'darwin') return detectSandboxExec(options.sandboxExecPath ?? SANDBOX_EXEC_PATH);
  return { kind: 'none', reason: `no command sandbox is supported on ${platform}` };
}

async function detectBubblewrap(bwrapPath: string | undefined): Promise<Confinement> {
  const candidates = bwrapPath === undefined ? BWRAP_LOCATIONS : [bwrapPath];
  const found = await firstExecutable(candidates);
  if (found === null)
    return {
      kind: 'none',
      reason:
        bwrapPath === undefined
          ? `bubblewrap (bwrap) is not installed (looked for ${candidates.join(', ')})`
          : `bubblewrap (bwrap) was not found at ${bwrapPath}`,
    };
  const systemRoots = await scanSystemRoots();
  const failures: string[] = [];
  // Binding open places and the hardened options both came with bubblewrap 0.8; a kernel can still
  // refuse the hardened ones. An older bwrap binds by path.
  const ways = [
    { hardened: true, bindsOpenPlaces: true },
    { hardened: false, bindsOpenPlaces: true },
    { hardened: false, bindsOpenPlaces: false },
  ];
  for (const way of ways) {
    const confinement: BubblewrapConfinement = { kind: 'bubblewrap', bwrapPath: found, ...way, systemRoots };
    const failure = await probe(confinement);
    if (failure === null) return confinement;
    failures.push(failure);
  }
  return {
    kind: 'none',
    reason: `bubblewrap is installed at ${found} but cannot make a sandbox here (${failures.at(-1)})`,
  };
}

async function detectSandboxExec(path: string): Promise<Confinement> {
  if ((await firstExecutable([path])) === null)
    return { kind: 'none', reason: `sandbox-exec was not found at ${path}` };
  const confinement: SandboxExecConfinement = { kind: 'sandbox-exec', sandboxExecPath: path };
  const failure = await probe(confinement);
  return failure === null
    ? confinement
    : { kind: 'none', reason: `sandbox-exec at ${path} cannot run a sandboxed command here (${failure})` };
}

/** Runs a command that writes and reads a file in a writable folder; null when it worked. */
async function probe(confinement: Confinement): Promise<string | null> {
  let folder: string;
  try {
    folder = await realpath(await mkdtemp(join(tmpdir(), 'lemming-shell-probe-')));
  } catch (error) {
    return `could not make a folder to test it in: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    const { dev, ino } = await lstat(folder, { bigint: true });
    const identity = { device: String(dev), inode: String(ino) };
    const result = await runShellCommand({
      command: `echo ${PROBE_TEXT} > probe && cat probe`,
      confinement,
      places: {
        workingDirectory: folder,
        mounts: [{ source: folder, target: folder, writable: true, ...identity }],
      },
      timeoutMs: PROBE_TIMEOUT_MS,
      maxOutputBytes: 4096,
      stopAfterBytes: 65_536,
    });
    if (!result.ok) return result.error;
    const run = result.value;
    if (run.exitCode === 0 && run.stdout.text.trim() === PROBE_TEXT) return null;
    const said = run.stderr.text.trim().split('\n')[0];
    if (run.stopped === 'timeout') return 'a test command did not finish';
    return said
      ? said
      : `a test command ended with ${run.exitCode === null ? `signal ${run.exitSignal}` : `code ${run.exitCode}`}`;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function firstExecutable(paths: readonly string[]): Promise<string | null> {
  for (const path of paths) {
    try {
      await access(path, constants.X_OK);
      return path;
    } catch {
      // Not here; try the next place.
    }
  }
  return null;
}
