import { readFileSync } from 'node:fs';

/** Whether a process with this pid exists at all, a zombie not yet reaped included. */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether the process still runs: a zombie waiting for its (new) parent to reap it counts as gone. */
export function isRunning(pid: number): boolean {
  if (!processExists(pid)) return false;
  if (process.platform !== 'linux') return true;
  const stat = procStat(pid);
  return stat !== undefined && !/^\d+ \(.*\) Z/.test(stat);
}

/** The process may end between any two looks at /proc, so a missing file is an answer, not an error. */
function procStat(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
}
