import type { WorkerOptions } from 'node:worker_threads';
import { ENGINE_RESOURCE_LIMITS, type EngineWorkerData } from './worker-messages';

/**
 * What the engine thread may see of the app's environment: what programs need to start and find their
 * files (the MCP SDK's inherited list, a `cli` model's base), nothing that could carry a key. A variable
 * granted to the open org is asked of main by name (the `environment.read` service), never inherited.
 */
const BASE_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  // Windows: what a program (an MCP server, a cli model) needs to start there.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'SYSTEMDRIVE',
  'PROGRAMFILES',
  'PROCESSOR_ARCHITECTURE',
];
const BASE_PREFIXES = ['LC_', 'XDG_'];

/**
 * The minimal base of `env` for the engine thread. Names are matched as the platform does: exactly,
 * and case-insensitively on Windows (where `Path` and `SystemRoot` are spelled so).
 */
export function engineWorkerEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const spelled = (name: string) => (platform === 'win32' ? name.toUpperCase() : name);
  const base: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const key = spelled(name);
    if (BASE_NAMES.includes(key) || BASE_PREFIXES.some((prefix) => key.startsWith(prefix)))
      base[name] = value;
  }
  return base;
}

/**
 * How main starts the engine thread: with the minimal base of its environment as the thread's
 * process.env and as the engine host's (never the app's whole environment), and its resource limits.
 */
export function engineWorkerOptions(
  workerData: Omit<EngineWorkerData, 'host'> & { host: Omit<EngineWorkerData['host'], 'env'> },
  env: Readonly<Record<string, string | undefined>> = process.env,
): WorkerOptions & { workerData: EngineWorkerData } {
  const base = engineWorkerEnvironment(env);
  return {
    workerData: { ...workerData, host: { ...workerData.host, env: base } },
    env: base,
    resourceLimits: ENGINE_RESOURCE_LIMITS,
  };
}
