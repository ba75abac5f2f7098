import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentSandbox } from '../../agent-sandbox';
import type { FileAccess } from '../../access-policy';
import { DiskAgentFilesystem } from '../../disk-agent-filesystem';
import type { Confinement } from '../confinement';
import { runShellCommand, type ShellCommandRun } from '../run-shell-command';
import { shellPlaces } from '../shell-places';

/** A secret that must never reach a command; set in the test process's environment, as an API key would be. */
export const SECRET_CANARY = 'sk-canary-7d41c0e2-never-in-a-shell';

/**
 * A real org on disk in a temp folder, with a file beside it that no agent may read:
 * `<root>/org/agents/a/workspace`, `<root>/org/shared`, `<root>/outside.txt`.
 */
export interface ShellOrg {
  root: string;
  org: string;
  agentDir: string;
  workspace: string;
  shared: string;
  outsideFile: string;
  sandbox(fileAccess?: FileAccess): AgentSandbox;
  /** Runs a command as the agent, with the default grants unless `fileAccess` is given. */
  run(
    command: string,
    confinement: Confinement,
    options?: {
      timeoutMs?: number;
      maxOutputBytes?: number;
      stopAfterBytes?: number;
      signal?: AbortSignal;
      fileAccess?: FileAccess;
    },
  ): Promise<ShellCommandRun>;
  dispose(): Promise<void>;
}

export async function createShellOrg(): Promise<ShellOrg> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'lemming-shell-')));
  const org = join(root, 'org');
  const agentDir = join(org, 'agents', 'a');
  const workspace = join(agentDir, 'workspace');
  const shared = join(org, 'shared');
  const outsideFile = join(root, 'outside.txt');
  await mkdir(workspace, { recursive: true });
  await mkdir(shared, { recursive: true });
  await writeFile(outsideFile, `${SECRET_CANARY}\n`);
  const sandbox = (fileAccess?: FileAccess) =>
    new AgentSandbox({ orgPath: org, agentDir, fileAccess, fs: new DiskAgentFilesystem() });
  return {
    root,
    org,
    agentDir,
    workspace,
    shared,
    outsideFile,
    sandbox,
    async run(command, confinement, options = {}) {
      const places = await shellPlaces(sandbox(options.fileAccess));
      if (!places.ok) throw new Error(places.error);
      const result = await runShellCommand({
        command,
        confinement,
        places: places.value,
        timeoutMs: options.timeoutMs ?? 20_000,
        maxOutputBytes: options.maxOutputBytes ?? 64 * 1024,
        stopAfterBytes: options.stopAfterBytes ?? 32 * 1024 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!result.ok) throw new Error(result.error);
      return result.value;
    },
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

export const UNCONFINED: Confinement = { kind: 'none', reason: 'chosen by the test' };

/** Sets variables in this process's environment for the duration of a suite; returns the undo. */
export function withEnvironment(values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** Live processes whose command line contains `marker` (Linux, through /proc). */
export async function processesWith(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const commandLine = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      if (commandLine.includes(marker)) found.push(Number(name));
    } catch {
      // The process ended while the list was read.
    }
  }
  return found;
}

/** Polls until no live process carries `marker`, or the time is up; returns the ones left. */
export async function waitUntilGone(marker: string, withinMs = 3000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  let left = await processesWith(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await processesWith(marker);
  }
  return left;
}

export const HAS_JQ = ['/usr/bin/jq', '/bin/jq', '/usr/local/bin/jq'].some((path) => existsSync(path));
