import type { ChildRequest, StartChild, StartedChild } from './child-starters';

/**
 * The spawner helper's program: a small long-lived Node process that starts the engine's programs (`cli`
 * models, shell commands) on request and reports their output and exit over its IPC channel. Two reasons
 * it exists: where programs are started by forking (Node's spawn on Linux without the compiled starter),
 * a fork costs in proportion to the forking process's memory, and the helper stays small while the engine
 * grows; and when the engine dies, however it dies (even by SIGKILL), its end of the channel closes, and
 * the helper then kills every process group it started before it exits itself.
 *
 * This function runs in the helper, not in the engine: `program-spawner.ts` passes its source text to
 * `node -e`, so it must use nothing from outside its own body except what it is given.
 */
export function spawnerHelperMain(startChild: StartChild, helper: NodeJS.Process): void {
  const running = new Map<number, StartedChild>();
  const signalGroup = (pid: number, signal: NodeJS.Signals) => {
    try {
      helper.kill(helper.platform === 'win32' ? pid : -pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  const endWithEngine = () => {
    for (const child of running.values()) if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    helper.exit(0);
  };
  // A report that cannot be sent breaks the channel (the engine would wait for it forever): the helper
  // ends as when the engine goes, and the engine hears its programs ended with the helper.
  const send = (message: unknown) => {
    if (helper.connected) helper.send!(message, (error: Error | null) => error && endWithEngine());
  };
  // A Ctrl-C in a terminal reaches the whole foreground group, the helper too: the engine decides what to
  // stop; the helper ends with the engine's channel.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) helper.on(signal, () => undefined);
  helper.on('disconnect', endWithEngine);
  helper.on('message', (message: SpawnerRequest) => {
    if (message.type === 'spawn') {
      const { id } = message;
      const child = startChild(message, {
        stdout: (chunk) => send({ type: 'stdout', id, chunk }),
        stderr: (chunk) => send({ type: 'stderr', id, chunk }),
        error: (code, text) => {
          running.delete(id);
          send({ type: 'error', id, code, message: text });
        },
        exit: (code, signal) => {
          // Whatever the program left running in its group ends with it (and lets go of its pipes).
          if (helper.platform !== 'win32' && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
          if (message.reportExit) send({ type: 'exit', id, code, signal });
        },
        close: (code, signal) => {
          running.delete(id);
          send({ type: 'close', id, code, signal });
        },
      });
      running.set(id, child);
    } else if (message.type === 'signal') {
      const pid = running.get(message.id)?.pid;
      if (pid !== undefined) signalGroup(pid, message.signal);
    } else {
      const child = running.get(message.id);
      running.delete(message.id);
      child?.stopReading();
    }
  });
}

/** What the engine asks of the helper. */
export type SpawnerRequest =
  | (ChildRequest & {
      type: 'spawn';
      id: number;
      /** Whether the engine listens for the exit (before the pipes close); the close is always reported. */
      reportExit: boolean;
    })
  | { type: 'signal'; id: number; signal: NodeJS.Signals }
  /** The engine no longer waits for the program's pipes to close: stop reading them. */
  | { type: 'release'; id: number };

/** What the helper tells the engine about a program it started. */
export type SpawnerReport =
  | { type: 'stdout' | 'stderr'; id: number; chunk: Uint8Array }
  | { type: 'error'; id: number; code: string | undefined; message: string }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };
