/**
 * Every program the engine starts (a `cli` model, a shell command) runs in its own process group, so that
 * ending the group ends whatever the program started in turn. This module keeps the groups still alive
 * and ends them all when the engine's own process ends — normally, or by SIGINT, SIGTERM or SIGHUP — so no
 * process outlives the run. (A SIGKILL to the engine cannot be caught; its children are then orphaned.)
 */
const liveGroups = new Set<number>();
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let hooked = false;

/** Sends `signal` to the whole group led by `pid` (on Windows, which has no groups, to `pid`). */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Remembers the group led by `pid` until the returned function is called (when the program's output has
 * closed), and ends it with the engine if the engine ends first.
 */
export function trackChildGroup(pid: number): () => void {
  hookProcessEnd();
  liveGroups.add(pid);
  return () => liveGroups.delete(pid);
}

/** How many started groups have not been released yet (for tests). */
export function liveChildGroupCount(): number {
  return liveGroups.size;
}

function endAllGroups(): void {
  for (const pid of liveGroups) signalGroup(pid, 'SIGKILL');
  liveGroups.clear();
}

function hookProcessEnd(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', endAllGroups);
  for (const signal of ENDING_SIGNALS) {
    const onSignal = () => {
      endAllGroups();
      // Nobody else handles the signal: let it do what it would have done without this listener.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
