import { type ChildProcess, spawn } from 'node:child_process';
import {
  type ChildRequest,
  type StartedChild,
  childStarterFor,
  childStarterHere,
  childStarterWithNode,
  childStarterWithPosixSpawn,
  openPinnedPlaces,
  programSpawnAddonPath,
} from './child-starters';
import { type SpawnerReport, type SpawnerRequest, spawnerHelperMain } from './spawner-helper';

/**
 * Starts the engine's programs (`cli` models, shell commands) through the spawner helper
 * (`spawner-helper.ts`), one per engine process, started on first use, so no program outlives the engine,
 * even one killed by SIGKILL. The helper starts them with the compiled starter (posix_spawn) where it is
 * built, else with Node's spawn, whose forks then cost what the small helper weighs, not the engine.
 */
export type ProgramRequest = ChildRequest;

export interface ProgramListeners {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** The program could not be started (`code` as Node's spawn gives it, e.g. ENOENT). */
  error(error: { code: string | undefined; message: string }): void;
  /**
   * The program exited; by then whatever it left running in its process group has been sent SIGKILL
   * (except on Windows), so its pipes close unless a process that left the group holds them.
   */
  exit?(code: number | null, signal: NodeJS.Signals | null): void;
  /** The program exited and its output pipes closed. */
  close(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface RunningProgram {
  /** Sends `signal` to the program's process group (on Windows, to the program). */
  signalGroup(signal: NodeJS.Signals): void;
  /** Stops reading the program's output and forgets it: no listener is called after this. */
  release(): void;
}

let helper: ChildProcess | null = null;
let nextId = 1;
const listening = new Map<number, ProgramListeners>();

export function startProgram(request: ProgramRequest, listeners: ProgramListeners): RunningProgram {
  // The packaged app turns Electron's run-as-node fuse off (electron-builder.yml), so its binary cannot
  // run the helper: in the app the engine thread starts programs itself.
  if (process.versions.electron !== undefined) return startProgramHere(request, listeners);
  const id = nextId++;
  let channel: ChildProcess;
  try {
    channel = helperProcess();
  } catch (error) {
    // Node's spawn throws at once for some failures (EIO, ENOSPC while the helper's stdio is set up): an
    // error like any other, heard after startProgram has answered.
    const { code, message } = error as NodeJS.ErrnoException;
    process.nextTick(() =>
      listeners.error({ code, message: `could not start the program starter: ${message}` }),
    );
    return { signalGroup: () => undefined, release: () => undefined };
  }
  listening.set(id, listeners);
  // The engine waits for the helper's reports only while one of its programs runs.
  if (listening.size === 1) refChannel(channel, true);
  send(channel, { type: 'spawn', id, ...request, reportExit: listeners.exit !== undefined });
  return {
    signalGroup: (signal) => {
      if (listening.has(id)) send(channel, { type: 'signal', id, signal });
    },
    release: () => {
      if (!forget(id)) return;
      send(channel, { type: 'release', id });
    },
  };
}

/** How many started programs the engine still listens to (for tests). */
export function runningProgramCount(): number {
  return listening.size;
}

/**
 * Starts the program from this process, in its own process group, and ends every group still running
 * when this process (or thread) exits normally. A SIGKILL of this process leaves the programs running,
 * and where Node's spawn starts them its forks cost what this process weighs: the helper avoids both.
 */
export function startProgramHere(request: ProgramRequest, listeners: ProgramListeners): RunningProgram {
  const id = nextId++;
  listening.set(id, listeners);
  const done = () => {
    directGroups.delete(child);
    return listening.delete(id);
  };
  const child = childStarterHere()(request, {
    stdout: (chunk) => listening.get(id)?.stdout(chunk),
    stderr: (chunk) => listening.get(id)?.stderr(chunk),
    error: (code, message) => {
      if (done()) listeners.error({ code, message });
    },
    exit: (code, signal) => {
      if (process.platform !== 'win32') signalGroupOf(child, 'SIGKILL');
      listening.get(id)?.exit?.(code, signal);
    },
    close: (code, signal) => {
      if (done()) listeners.close(code, signal);
    },
  });
  directGroups.add(child);
  hookDirectExit();
  return {
    signalGroup: (signal) => {
      if (directGroups.has(child)) signalGroupOf(child, signal);
    },
    release: () => {
      if (done()) child.stopReading();
    },
  };
}

const directGroups = new Set<StartedChild>();
let directExitHooked = false;
function hookDirectExit(): void {
  if (directExitHooked) return;
  directExitHooked = true;
  process.on('exit', () => {
    for (const child of directGroups) signalGroupOf(child, 'SIGKILL');
  });
}

function signalGroupOf(child: StartedChild, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? child.pid : -child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

function forget(id: number): boolean {
  if (!listening.delete(id)) return false;
  if (listening.size === 0 && helper) refChannel(helper, false);
  return true;
}

function helperProcess(): ChildProcess {
  if (helper?.connected) return helper;
  const started = spawn(
    process.execPath,
    [
      // The helper runs little JavaScript, and where it starts programs by forking (Node's spawn on
      // Linux without the compiled starter) a fork costs in proportion to what the forking process has
      // mapped: no JIT code space, no worker threads, a small young generation. Measured per program
      // started by forking: the helper's CPU 0.92 → 0.83 ms, the program's 1.00 → 0.93 ms. With
      // posix_spawn the flags change nothing measurable (0.45 ms and 0.75 ms either way).
      '--jitless',
      '--single-threaded',
      '--max-semi-space-size=1',
      '-e',
      helperSource(programSpawnAddonPath()),
    ],
    {
      // The helper needs nothing of the engine's environment: every program gets its own.
      env: { ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
      windowsHide: true,
    },
  );
  started.unref();
  started.on('message', (report: SpawnerReport) => deliver(report));
  started.on('error', () => undefined);
  started.on('disconnect', () => {
    if (helper === started) helper = null;
    // Programs it was running are gone with it.
    for (const [id, listeners] of [...listening]) {
      forget(id);
      listeners.error({ code: 'EPIPE', message: 'the program spawner ended' });
    }
  });
  helper = started;
  return started;
}

/** The helper's program: its starter (child-starters.ts), then its main function (spawner-helper.ts). */
function helperSource(addonPath: string | null): string {
  const startChild = `(${childStarterFor.toString()})(${JSON.stringify(addonPath)}, require, process.platform, (message) => process.emitWarning(message), ${childStarterWithPosixSpawn.toString()}, ${childStarterWithNode.toString()}, ${openPinnedPlaces.toString()})`;
  // `__name` is the helper esbuild's keepNames (tsx, some bundles) writes into a function's text.
  return `var __name = (f) => f; (${spawnerHelperMain.toString()})(${startChild}, process)`;
}

function deliver(report: SpawnerReport): void {
  const listeners = listening.get(report.id);
  if (!listeners) return;
  switch (report.type) {
    case 'stdout':
    case 'stderr':
      listeners[report.type](
        Buffer.from(report.chunk.buffer, report.chunk.byteOffset, report.chunk.byteLength),
      );
      return;
    case 'error':
      forget(report.id);
      listeners.error({ code: report.code, message: report.message });
      return;
    case 'exit':
      listeners.exit?.(report.code, report.signal);
      return;
    case 'close':
      forget(report.id);
      listeners.close(report.code, report.signal);
  }
}

/**
 * A request the helper cannot be sent breaks its channel: every program the engine listens to ends with
 * an error (a lost spawn request would otherwise be waited for forever), and the channel is closed, so
 * the helper ends the programs it runs and the next program starts a new helper.
 */
function send(channel: ChildProcess, request: SpawnerRequest): void {
  const failed = (error: Error | null) => {
    if (error) channelFailed(channel, error);
  };
  // Listeners hear of a failure after startProgram has answered, as they hear of everything else.
  if (!channel.connected) return process.nextTick(failed, new Error('the channel is closed'));
  try {
    channel.send(request, failed);
  } catch (error) {
    process.nextTick(failed, error instanceof Error ? error : new Error(String(error)));
  }
}

function channelFailed(channel: ChildProcess, error: Error): void {
  if (helper === channel) helper = null;
  const code = (error as NodeJS.ErrnoException).code ?? 'EPIPE';
  for (const [id, listeners] of [...listening]) {
    forget(id);
    listeners.error({ code, message: `could not reach the program starter: ${error.message}` });
  }
  if (channel.connected) channel.disconnect();
}

/** Node types the IPC channel's ref/unref as internal; they exist on every ChildProcess with 'ipc'. */
function refChannel(channel: ChildProcess, ref: boolean): void {
  const handle = (channel as ChildProcess & { channel?: { ref(): void; unref(): void } }).channel;
  if (ref) handle?.ref();
  else handle?.unref();
}
