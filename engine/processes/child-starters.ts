import type * as nodeChildProcess from 'node:child_process';
import type * as nodeFs from 'node:fs';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as nodeNet from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as nodeUtil from 'node:util';

/**
 * The two ways a program is started: posix_spawn through the compiled program starter
 * (native/program-spawn, built on Linux, where Node's spawn forks), or Node's own spawn. Both start the
 * program the same way: stdin from /dev/null, stdout and stderr piped, its own process group (except on
 * Windows), a name without a slash looked up in the PATH it is given.
 *
 * The two `childStarterWith…` functions also run in the spawner helper, which gets their source text
 * (`program-spawner.ts`): they use nothing from outside their own bodies except what they are given.
 */
export interface ChildRequest {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Places the program gets open, the first at descriptor FIRST_PLACE_FD and the next ones after it, in
   * order (bubblewrap's `--bind-fd`). Each is opened without following a link anywhere in its path and
   * must still be the place that was checked, or the program is not started.
   */
  places?: readonly PinnedPlace[];
}

/** A file or folder by its canonical path (no link in it) and the identity it had when it was checked. */
export interface PinnedPlace {
  path: string;
  /** `stat`'s dev and ino, as decimal text (they can pass 2^53). */
  device: string;
  inode: string;
}

/** The descriptor at which a program gets the first of its places. */
export const FIRST_PLACE_FD = 3;

/** What a started program reports: its output, then either `error` alone, or `exit` and then `close`. */
export interface ChildEvents {
  stdout(chunk: Buffer): void;
  stderr(chunk: Buffer): void;
  /** The program could not be started (`code` as Node's spawn gives it, e.g. ENOENT). */
  error(code: string | undefined, message: string): void;
  exit(code: number | null, signal: NodeJS.Signals | null): void;
  /** The program has exited and its output pipes have closed (or were no longer read). */
  close(code: number | null, signal: NodeJS.Signals | null): void;
}

export interface StartedChild {
  /** Undefined when the program could not be started. */
  readonly pid: number | undefined;
  /** Stops reading the program's output and closes the pipes. */
  stopReading(): void;
}

export type StartChild = (request: ChildRequest, events: ChildEvents) => StartedChild;

/** A starter given the request's places already open, in order, to pass on from FIRST_PLACE_FD. */
export type StartChildWithPlaces = (
  request: ChildRequest,
  events: ChildEvents,
  placeFds?: readonly number[],
) => StartedChild;

/** What native/program-spawn/program_spawn.c exports. */
export interface ProgramSpawnAddon {
  spawn(
    file: string,
    argv: string[],
    env: string[],
    cwd: string,
    onExit: (code: number | null, signal: number) => void,
    /** Descriptors the program gets at 3, 4, … in order. */
    passFds?: number[],
  ): [pid: number, stdoutFd: number, stderrFd: number] | number;
  /** True where `spawn` passes `passFds` (a program starter built before it ignores them). */
  passesDescriptors?: boolean;
}

export function childStarterWithNode(
  childProcess: typeof nodeChildProcess,
  platform: NodeJS.Platform,
): StartChildWithPlaces {
  return (request, events, placeFds = []) => {
    let child: ReturnType<typeof childProcess.spawn>;
    try {
      child = childProcess.spawn(request.file, request.args, {
        cwd: request.cwd,
        env: request.env,
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe', ...placeFds],
        windowsHide: true,
        // Its own process group, so ending the group ends whatever the program started.
        detached: platform !== 'win32',
      });
    } catch (error) {
      // Node refuses some requests at once (a null byte in an argument): an error like any other.
      const { code, message } = error as NodeJS.ErrnoException;
      queueMicrotask(() => events.error(code, message));
      return { pid: undefined, stopReading: () => undefined };
    }
    let failed = false;
    child.stdout!.on('data', events.stdout);
    child.stderr!.on('data', events.stderr);
    child.on('error', (error: NodeJS.ErrnoException) => {
      failed = true;
      events.error(error.code, error.message);
    });
    child.on('exit', events.exit);
    // Node closes a child that failed to start too; the events end with the error then.
    child.on('close', (code, signal) => failed || events.close(code, signal));
    return {
      get pid() {
        return child.pid;
      },
      stopReading() {
        child.stdout!.destroy();
        child.stderr!.destroy();
      },
    };
  };
}

export function childStarterWithPosixSpawn(
  addon: ProgramSpawnAddon,
  net: typeof nodeNet,
  util: typeof nodeUtil,
  signalNumbers: Record<string, number>,
): StartChildWithPlaces {
  // A number's first name, as Node gives it (6 is SIGABRT before SIGIOT, 29 SIGIO before SIGPOLL).
  const signalNames = new Map<number, string>();
  for (const [name, number] of Object.entries(signalNumbers))
    if (!signalNames.has(number)) signalNames.set(number, name);
  return (request, events, placeFds = []) => {
    const env: string[] = [];
    for (const name in request.env) {
      const value = request.env[name];
      if (value !== undefined) env.push(`${name}=${value}`);
    }
    // C strings end at a null byte: refused, as Node's spawn refuses it, rather than cut short.
    if ([request.file, request.cwd, ...request.args, ...env].some((text) => text.includes('\0'))) {
      const message = `spawn ${request.file}: the program, its folder, arguments and environment must hold no null byte`;
      queueMicrotask(() => events.error('ERR_INVALID_ARG_VALUE', message));
      return { pid: undefined, stopReading: () => undefined };
    }
    if (placeFds.length > 0 && addon.passesDescriptors !== true) {
      const message = `spawn ${request.file}: the program starter was built before it could pass open folders; rebuild it (npm run build:native)`;
      queueMicrotask(() => events.error('ENOTSUP', message));
      return { pid: undefined, stopReading: () => undefined };
    }
    let exited: [number | null, NodeJS.Signals | null] | undefined;
    let openPipes = 2;
    const closeWhenDone = () => {
      if (exited && openPipes === 0) events.close(...exited);
    };
    const started = addon.spawn(
      request.file,
      [request.file, ...request.args],
      env,
      request.cwd,
      (code, signal) => {
        exited = [code, signal === 0 ? null : ((signalNames.get(signal) ?? null) as NodeJS.Signals | null)];
        events.exit(...exited);
        closeWhenDone();
      },
      [...placeFds],
    );
    if (typeof started === 'number') {
      const code = util.getSystemErrorName(started);
      // As Node's spawn does: the error arrives after the caller has the returned object.
      queueMicrotask(() => events.error(code, `spawn ${request.file} ${code}`));
      return { pid: undefined, stopReading: () => undefined };
    }
    const [pid, stdoutFd, stderrFd] = started;
    const read = (fd: number, deliver: (chunk: Buffer) => void) => {
      const pipe = new net.Socket({ fd, readable: true, writable: false });
      pipe.on('data', deliver);
      // A read error ends the pipe like its end does; the program's exit is what tells how it went.
      pipe.on('error', () => undefined);
      pipe.on('close', () => {
        openPipes--;
        closeWhenDone();
      });
      return pipe;
    };
    const stdout = read(stdoutFd, events.stdout);
    const stderr = read(stderrFd, events.stderr);
    return {
      pid,
      stopReading() {
        stdout.destroy();
        stderr.destroy();
      },
    };
  };
}

const ADDON_FILE = join('out', 'native', 'program-spawn.node');

let addonPath: string | null | undefined;

/**
 * Where the compiled program starter is, or null when this platform has none or it was not built. It is
 * looked for above this module, whose file is engine/processes here, out/cli/chunks in the CLI bundle and
 * out/main in the app.
 */
export function programSpawnAddonPath(): string | null {
  if (addonPath !== undefined) return addonPath;
  addonPath = null;
  if (process.platform !== 'linux') return addonPath;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < 4; level++) {
    const candidate = join(folder, ADDON_FILE);
    if (existsSync(candidate)) return (addonPath = candidate);
    folder = dirname(folder);
  }
  return addonPath;
}

/**
 * Opens each place by walking its path one name at a time from `/`, each name looked up in the folder
 * opened just before (through its /proc/self/fd entry) and never followed when it is a link, then checks
 * that what it reached is a file or folder with the identity that was checked. Between that check and
 * the program's use of the descriptor nothing can swap the place: a rename or a link moves names, not
 * what an open descriptor refers to. The descriptors are O_PATH: nothing is read through them, and a
 * FIFO or device put in a place's stead is not opened for real. On failure every one is closed.
 * Self-contained like the starters (the helper runs its source).
 */
export function openPinnedPlaces(
  fs: typeof nodeFs,
  places: readonly PinnedPlace[],
): { ok: true; value: number[] } | { ok: false; error: string } {
  // Linux's O_PATH, the same on every architecture Node runs on; Node does not name it.
  const O_PATH = 0o10000000;
  const { O_DIRECTORY, O_NOFOLLOW } = fs.constants;
  const opened: number[] = [];
  const closeAll = () => {
    for (const fd of opened) fs.closeSync(fd);
  };
  const refuse = (place: PinnedPlace, why: string) => {
    closeAll();
    return {
      ok: false as const,
      error: `${place.path} changed after it was checked (${why}), so the program was not started`,
    };
  };
  for (const place of places) {
    const names = place.path.split('/').filter((name) => name !== '');
    if (!place.path.startsWith('/') || names.some((name) => name === '.' || name === '..'))
      return refuse(place, 'it is not a full path without . or ..');
    let walking = '/';
    try {
      let fd = fs.openSync('/', O_PATH | O_DIRECTORY);
      opened.push(fd);
      for (const [index, name] of names.entries()) {
        walking = name;
        const inner = index < names.length - 1;
        const next = fs.openSync(
          `/proc/self/fd/${fd}/${name}`,
          O_PATH | O_NOFOLLOW | (inner ? O_DIRECTORY : 0),
        );
        fs.closeSync(opened.pop()!);
        fd = next;
        opened.push(fd);
      }
      const found = fs.fstatSync(fd, { bigint: true });
      if (!found.isDirectory() && !found.isFile()) return refuse(place, 'it is now a link or a special file');
      if (String(found.dev) !== place.device || String(found.ino) !== place.inode)
        return refuse(place, 'another file or folder is there now');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return refuse(
        place,
        code === 'ENOENT'
          ? `${walking} is gone`
          : code === 'ENOTDIR' || code === 'ELOOP'
            ? `${walking} is now a link or not a folder`
            : `${walking} could not be opened: ${String(error)}`,
      );
    }
  }
  return { ok: true, value: opened };
}

/**
 * A process's starter: the compiled one at `addonPath` when it loads, else Node's spawn, either given
 * the request's places opened and checked by `openPlaces` (then closed here once the program has them).
 * Self-contained like the starters (the helper runs its source), so the three are given to it.
 */
export function childStarterFor(
  addonPath: string | null,
  load: (id: string) => unknown,
  platform: NodeJS.Platform,
  warn: (message: string) => void,
  withPosixSpawn: typeof childStarterWithPosixSpawn,
  withNode: typeof childStarterWithNode,
  openPlaces: typeof openPinnedPlaces,
): StartChild {
  let start: StartChildWithPlaces | undefined;
  if (addonPath !== null) {
    try {
      start = withPosixSpawn(
        load(addonPath) as ProgramSpawnAddon,
        load('node:net') as typeof nodeNet,
        load('node:util') as typeof nodeUtil,
        (load('node:os') as { constants: { signals: Record<string, number> } }).constants.signals,
      );
    } catch (error) {
      warn(
        `the program starter at ${addonPath} did not load, so Node's spawn starts programs: ${String(error)}`,
      );
    }
  }
  const startChild = start ?? withNode(load('node:child_process') as typeof nodeChildProcess, platform);
  const fs = load('node:fs') as typeof nodeFs;
  return (request, events) => {
    if (request.places === undefined || request.places.length === 0) return startChild(request, events);
    const opened = openPlaces(fs, request.places);
    if (!opened.ok) {
      const { error } = opened;
      queueMicrotask(() => events.error('ESTALE', error));
      return { pid: undefined, stopReading: () => undefined };
    }
    try {
      return startChild(request, events, opened.value);
    } finally {
      // The program has its own copies now (both starters start it before they return).
      for (const fd of opened.value) fs.closeSync(fd);
    }
  };
}

let starterHere: StartChild | undefined;

/** How this process starts programs. */
export function childStarterHere(): StartChild {
  // Through require, as Electron maps a path inside app.asar to its unpacked copy for require.
  starterHere ??= childStarterFor(
    programSpawnAddonPath(),
    createRequire(import.meta.url),
    process.platform,
    (message) => process.emitWarning(message),
    childStarterWithPosixSpawn,
    childStarterWithNode,
    openPinnedPlaces,
  );
  return starterHere;
}
