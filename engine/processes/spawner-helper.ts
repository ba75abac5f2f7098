// Type imports only: they are erased, so the helper's function stays self-contained.
import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/**
 * The spawner helper's program: a small long-lived Node process that starts the engine's programs (`cli`
 * models, shell commands) on request and reports their output and exit over its IPC channel. Two reasons
 * it exists: forking a process costs in proportion to the forking process's memory, and the helper stays
 * small while the engine grows; and when the engine dies, however it dies (even by SIGKILL), its end of the
 * channel closes, and the helper then kills every process group it started before it exits itself.
 *
 * This function runs in the helper, not in the engine: `program-spawner.ts` passes its source text to
 * `node -e`, so it must use nothing from outside its own body except what it is given.
 */
export function spawnerHelperMain(childProcess: typeof ChildProcesses, helper: NodeJS.Process): void {
  const running = new Map<number, ChildProcess>();
  const signalGroup = (pid: number, signal: NodeJS.Signals) => {
    try {
      helper.kill(helper.platform === 'win32' ? pid : -pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const send = (message: unknown) => {
    if (helper.connected) helper.send!(message);
  };
  // A Ctrl-C in a terminal reaches the whole foreground group, the helper too: the engine decides what to
  // stop; the helper ends with the engine's channel.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) helper.on(signal, () => undefined);
  helper.on('disconnect', () => {
    for (const child of running.values()) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    helper.exit(0);
  });
  helper.on('message', (message: SpawnerRequest) => {
    if (message.type === 'spawn') {
      const { id } = message;
      const child = childProcess.spawn(message.file, message.args, {
        cwd: message.cwd,
        env: message.env,
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        // Its own process group, so ending the group ends whatever the program started.
        detached: helper.platform !== 'win32',
      });
      running.set(id, child);
      child.stdout!.on('data', (chunk: Buffer) => send({ type: 'stdout', id, chunk }));
      child.stderr!.on('data', (chunk: Buffer) => send({ type: 'stderr', id, chunk }));
      child.on('error', (error: NodeJS.ErrnoException) => {
        running.delete(id);
        send({ type: 'error', id, code: error.code, message: error.message });
      });
      child.on('exit', (code, signal) => {
        // Whatever the program left running in its group ends with it (and lets go of its pipes).
        if (helper.platform !== 'win32' && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        if (message.reportExit) send({ type: 'exit', id, code, signal });
      });
      child.on('close', (code, signal) => {
        running.delete(id);
        send({ type: 'close', id, code, signal });
      });
    } else if (message.type === 'signal') {
      const pid = running.get(message.id)?.pid;
      if (pid !== undefined) signalGroup(pid, message.signal);
    } else {
      const child = running.get(message.id);
      running.delete(message.id);
      child?.stdout?.destroy();
      child?.stderr?.destroy();
    }
  });
}

/** What the engine asks of the helper. */
export type SpawnerRequest =
  | {
      type: 'spawn';
      id: number;
      file: string;
      args: string[];
      cwd: string;
      env: NodeJS.ProcessEnv;
      /** Whether the engine listens for the exit (before the pipes close); the close is always reported. */
      reportExit: boolean;
    }
  | { type: 'signal'; id: number; signal: NodeJS.Signals }
  /** The engine no longer waits for the program's pipes to close: stop reading them. */
  | { type: 'release'; id: number };

/** What the helper tells the engine about a program it started. */
export type SpawnerReport =
  | { type: 'stdout' | 'stderr'; id: number; chunk: Uint8Array }
  | { type: 'error'; id: number; code: string | undefined; message: string }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };
