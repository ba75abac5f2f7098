import * as childProcess from 'node:child_process';
import * as fs from 'node:fs';
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import * as net from 'node:net';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as util from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChildRequest,
  type PinnedPlace,
  type ProgramSpawnAddon,
  type StartChildWithPlaces,
  childStarterFor,
  childStarterWithNode,
  childStarterWithPosixSpawn,
  openPinnedPlaces,
  programSpawnAddonPath,
} from './child-starters';
import { startProgram } from './program-spawner';
import { processExists } from './test-support/process-liveness';

interface Heard {
  stdout: string;
  stderr: string;
  exit?: [number | null, string | null];
  close?: [number | null, string | null];
  error?: string;
}

/** Runs a program to its end and tells what it reported, in the order it reported it. */
function run(
  start: StartChildWithPlaces,
  request: Partial<ChildRequest> & { file: string },
  placeFds: readonly number[] = [],
) {
  return new Promise<Heard & { order: string[] }>((resolve) => {
    const heard: Heard & { order: string[] } = { stdout: '', stderr: '', order: [] };
    start(
      { args: [], cwd: '/', env: { PATH: process.env.PATH }, ...request },
      {
        stdout: (chunk) => (heard.stdout += chunk.toString()),
        stderr: (chunk) => (heard.stderr += chunk.toString()),
        error: (code) => {
          heard.order.push('error');
          resolve({ ...heard, error: code });
        },
        exit: (code, signal) => {
          heard.order.push('exit');
          heard.exit = [code, signal];
        },
        close: (code, signal) => {
          heard.order.push('close');
          resolve({ ...heard, close: [code, signal] });
        },
      },
      placeFds,
    );
  });
}

const addonPath = programSpawnAddonPath();
const starters: [string, StartChildWithPlaces][] = [
  ['Node spawn', childStarterWithNode(childProcess, process.platform)],
];
if (addonPath !== null) {
  const addon = createRequire(import.meta.url)(addonPath) as ProgramSpawnAddon;
  starters.push(['posix_spawn', childStarterWithPosixSpawn(addon, net, util, constants.signals)]);
}

const scratch = mkdtempSync(join(tmpdir(), 'lemming-starters-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function script(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  chmodSync(file, 0o755);
  return file;
}

// The compiled starter is built on Linux only, and off CI only where a C compiler is installed; on CI the
// first test below fails when it is missing, so the skips that depend on it never hide a failure there.
describe.skipIf(process.platform !== 'linux')('the compiled program starter on Linux', () => {
  it.skipIf(!process.env.CI)('is built (on CI, so the tests run the starter the installers ship)', () => {
    expect(addonPath).toMatch(/program-spawn\.node$/);
  });

  it.skipIf(addonPath === null)('starts the spawner helper’s programs', async () => {
    // The helper is the program's parent; the starter is a library the helper has loaded.
    const parent = await new Promise<number>((resolve, reject) => {
      let stdout = '';
      startProgram(
        { file: '/bin/sh', args: ['-c', 'echo $PPID'], cwd: '/', env: {} },
        {
          stdout: (chunk) => (stdout += chunk.toString()),
          stderr: () => undefined,
          error: (error) => reject(new Error(error.message)),
          close: () => resolve(Number(stdout.trim())),
        },
      );
    });
    expect(readFileSync(`/proc/${parent}/maps`, 'utf8')).toContain('program-spawn.node');
  });
});

describe.skipIf(addonPath === null)('the compiled starter in a thread that ends', () => {
  it('reports nothing once the thread is gone, and the program is still reaped', async () => {
    // The app's engine is a worker thread: when it ends, the waiting thread of a program still running
    // must not call into the ended thread's JavaScript.
    const worker = new Worker(
      `const { closeSync } = require('node:fs');
       const { parentPort, workerData } = require('node:worker_threads');
       const [pid, stdout, stderr] = require(workerData.addonPath)
         .spawn('/bin/sleep', ['/bin/sleep', '0.3'], [], '/', () => parentPort.postMessage('exit reported'));
       closeSync(stdout);
       closeSync(stderr);
       parentPort.postMessage(pid);`,
      { eval: true, workerData: { addonPath } },
    );
    const pid = await new Promise<number>((resolve) => worker.once('message', resolve));
    await worker.terminate();
    // Reaped: not even a zombie is left.
    await expect.poll(() => processExists(pid), { timeout: 5_000 }).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // This process lives on, and starting programs still works.
    const start = childStarterWithPosixSpawn(
      createRequire(import.meta.url)(addonPath!) as ProgramSpawnAddon,
      net,
      util,
      constants.signals,
    );
    expect((await run(start, { file: '/bin/sh', args: ['-c', 'exit 5'] })).close).toEqual([5, null]);
  });
});

// The programs are /bin/sh scripts, which Windows does not have.
describe.skipIf(process.platform === 'win32')('starting a program', () => {
  for (const [how, start] of starters) {
    describe(how, () => {
      it('reports its output, then its exit, then the close', async () => {
        const heard = await run(start, { file: '/bin/sh', args: ['-c', 'echo out; echo err >&2; exit 3'] });
        expect(heard).toEqual({
          stdout: 'out\n',
          stderr: 'err\n',
          exit: [3, null],
          close: [3, null],
          order: ['exit', 'close'],
        });
      });

      it('names the signal that ended it', async () => {
        const heard = await run(start, { file: '/bin/sh', args: ['-c', 'kill -TERM $$'] });
        expect(heard.exit).toEqual([null, 'SIGTERM']);
        expect(heard.close).toEqual([null, 'SIGTERM']);
        // A number with two names gets the one Node gives it.
        expect((await run(start, { file: '/bin/sh', args: ['-c', 'kill -ABRT $$'] })).exit).toEqual([
          null,
          'SIGABRT',
        ]);
      });

      it('runs it in the folder, with exactly the environment, it is given', async () => {
        const heard = await run(start, { file: '/usr/bin/env', cwd: scratch, env: { ONLY: 'this one' } });
        expect(heard.stdout).toBe('ONLY=this one\n');
        expect((await run(start, { file: '/bin/pwd', cwd: scratch })).stdout.trim()).toBe(scratch);
      });

      it('looks a bare name up in the PATH the program is given, not the one of this process', async () => {
        script('only-in-scratch', '#!/bin/sh\necho found\n');
        const heard = await run(start, { file: 'only-in-scratch', env: { PATH: `/nonexistent:${scratch}` } });
        expect(heard.stdout).toBe('found\n');
        expect((await run(start, { file: 'only-in-scratch' })).error).toBe('ENOENT');
      });

      it('is an error with its code when the program is missing, with no exit or close', async () => {
        const heard = await run(start, { file: '/no/such/program' });
        expect(heard.error).toBe('ENOENT');
        expect(heard.order).toEqual(['error']);
      });

      it('refuses a null byte in an argument, as an error, rather than run the argument cut short', async () => {
        const heard = await run(start, { file: '/bin/echo', args: ['before\0after'] });
        expect(heard).toMatchObject({ error: 'ERR_INVALID_ARG_VALUE', order: ['error'], stdout: '' });
      });

      it('runs a script without a #! line with /bin/sh, as execvp does', async () => {
        const file = script('no-interpreter-line', 'echo "ran by sh"\n');
        expect((await run(start, { file })).stdout).toBe('ran by sh\n');
      });

      it('gives it no input, default signal handling (SIGPIPE too) and no blocked signals', async () => {
        expect((await run(start, { file: '/bin/cat' })).close).toEqual([0, null]);
        // With SIGPIPE ignored, as Node ignores it, `yes` would complain of a broken pipe and exit 1.
        const heard = await run(start, { file: '/bin/sh', args: ['-c', 'yes | head -c 4; echo " $?"'] });
        expect(heard).toMatchObject({ stdout: 'y\ny\n 0\n', stderr: '' });
        if (process.platform !== 'linux') return;
        // Read by the program itself (a shell blocks signals while it forks, so its children see that).
        const masks = await run(start, {
          file: '/bin/grep',
          args: ['-E', '^Sig(Blk|Ign)', '/proc/self/status'],
        });
        const [, blocked, ignored] = /^SigBlk:\s+([0-9a-f]+)\nSigIgn:\s+([0-9a-f]+)\n$/.exec(masks.stdout)!;
        expect(BigInt(`0x${blocked}`)).toBe(0n);
        // Signals 1–31 (bit n-1 is signal n). glibc's posix_spawn leaves its own two, 32 and 33, ignored, as
        // in every program it starts; glibc programs take them over when they start.
        expect(BigInt(`0x${ignored}`) & 0x7fffffffn).toBe(0n);
      });

      it.skipIf(process.platform !== 'linux')('gives it its own session and process group', async () => {
        const heard = await run(start, { file: '/bin/sh', args: ['-c', 'echo $$; cat /proc/$$/stat'] });
        const [pid, stat] = heard.stdout.split('\n');
        const [group, session] = stat!
          .slice(stat!.lastIndexOf(')') + 2)
          .split(' ')
          .slice(2, 4);
        expect([group, session]).toEqual([pid, pid]);
      });

      it.skipIf(process.platform !== 'linux')(
        'passes the descriptors it is given at 3, 4, … in their order, even one already at 3',
        async () => {
          const folder = join(scratch, 'passed');
          mkdirSync(folder, { recursive: true });
          const opened = openSync(folder, 'r');
          // This process's lowest descriptor past stdio, passed second: putting the folder at 3 must not
          // close it before it is moved to 4.
          const lowest = Math.min(
            ...readdirSync('/proc/self/fd')
              .map(Number)
              .filter((fd) => fd >= 3 && fd !== opened),
          );
          const lowestIs = fs.readlinkSync(`/proc/self/fd/${lowest}`);
          try {
            const heard = await run(
              start,
              { file: '/bin/sh', args: ['-c', 'readlink /proc/$$/fd/3 /proc/$$/fd/4'] },
              [opened, lowest],
            );
            expect(heard.stdout).toBe(`${folder}\n${lowestIs}\n`);
          } finally {
            closeSync(opened);
          }
        },
      );

      it('stops reading when told, and still reports the close', async () => {
        const heard = await new Promise<string[]>((resolve) => {
          const order: string[] = [];
          const child = start(
            { file: '/bin/sh', args: ['-c', 'sleep 0.2; echo late'], cwd: '/', env: {} },
            {
              stdout: () => order.push('stdout'),
              stderr: () => order.push('stderr'),
              error: () => resolve([...order, 'error']),
              exit: () => order.push('exit'),
              close: () => resolve([...order, 'close']),
            },
          );
          child.stopReading();
        });
        expect(heard).toEqual(['exit', 'close']);
      });
    });
  }
});

/** Its identity as the engine checks it. */
function pinned(path: string): PinnedPlace {
  const { dev, ino } = lstatSync(path, { bigint: true });
  return { path, device: String(dev), inode: String(ino) };
}

const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe.skipIf(process.platform !== 'linux')('opening the places a program gets', () => {
  const root = join(scratch, 'places');
  const folder = join(root, 'org', 'shared', 'data');
  const file = join(root, 'org', 'notes.md');
  const outside = join(root, 'outside');
  mkdirSync(folder, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(file, 'notes');

  it('opens a folder and a file that are still what was checked, in order', () => {
    const opened = openPinnedPlaces(fs, [pinned(folder), pinned(file)]);
    if (!opened.ok) throw new Error(opened.error);
    try {
      expect(opened.value.map((fd) => fs.readlinkSync(`/proc/self/fd/${fd}`))).toEqual([folder, file]);
    } finally {
      for (const fd of opened.value) closeSync(fd);
    }
  });

  it('refuses a place swapped for a link, at its last name or above it, and closes what it opened', () => {
    const cases: [string, () => void, () => void][] = [
      [
        'it is now a link',
        () => {
          renameSync(folder, `${folder}-real`);
          symlinkSync(outside, folder);
        },
        () => {
          rmSync(folder);
          renameSync(`${folder}-real`, folder);
        },
      ],
      [
        'shared is now a link',
        () => {
          const shared = join(root, 'org', 'shared');
          renameSync(shared, `${shared}-real`);
          symlinkSync(`${shared}-real`, shared);
        },
        () => {
          const shared = join(root, 'org', 'shared');
          rmSync(shared);
          renameSync(`${shared}-real`, shared);
        },
      ],
    ];
    for (const [why, swap, undo] of cases) {
      const checked = pinned(folder);
      swap();
      try {
        const before = openDescriptors();
        const opened = openPinnedPlaces(fs, [pinned(file), checked]);
        expect(opened).toEqual({
          ok: false,
          error: expect.stringContaining(`${folder} changed after it was checked (${why}`),
        });
        expect(openDescriptors()).toBe(before);
      } finally {
        undo();
      }
    }
  });

  it('refuses another folder moved to the path that was checked, and a place that is gone', () => {
    const checked = pinned(folder);
    renameSync(folder, `${folder}-old`);
    mkdirSync(folder);
    try {
      expect(openPinnedPlaces(fs, [checked])).toEqual({
        ok: false,
        error: expect.stringContaining('another file or folder is there now'),
      });
      expect(openPinnedPlaces(fs, [{ ...checked, path: join(root, 'missing') }])).toEqual({
        ok: false,
        error: expect.stringContaining('missing is gone'),
      });
    } finally {
      rmSync(folder, { recursive: true });
      renameSync(`${folder}-old`, folder);
    }
  });

  const withNodeSpawn = childStarterFor(
    null,
    createRequire(import.meta.url),
    process.platform,
    () => undefined,
    childStarterWithPosixSpawn,
    childStarterWithNode,
    openPinnedPlaces,
  );
  it("passes the places with Node's spawn too (where the compiled starter is not built)", async () => {
    const heard = await run(withNodeSpawn, {
      file: '/bin/sh',
      args: ['-c', 'readlink /proc/$$/fd/3'],
      places: [pinned(folder)],
    });
    expect(heard.stdout).toBe(`${folder}\n`);
    expect(
      await run(withNodeSpawn, {
        file: '/bin/sh',
        args: ['-c', 'echo ran'],
        places: [{ ...pinned(folder), device: '0' }],
      }),
    ).toMatchObject({ stdout: '', error: 'ESTALE', order: ['error'] });
  });

  it('passes the places to a program the spawner helper starts, or starts nothing when one changed', async () => {
    const started = (places: PinnedPlace[]) =>
      new Promise<{ stdout: string } | { error: string }>((resolve) => {
        let stdout = '';
        startProgram(
          {
            file: '/bin/sh',
            args: ['-c', 'readlink /proc/$$/fd/3 /proc/$$/fd/4'],
            cwd: '/',
            env: {},
            places,
          },
          {
            stdout: (chunk) => (stdout += chunk.toString()),
            stderr: () => undefined,
            error: (error) => resolve({ error: `${error.code}: ${error.message}` }),
            close: () => resolve({ stdout }),
          },
        );
      });
    expect(await started([pinned(file), pinned(folder)])).toEqual({ stdout: `${file}\n${folder}\n` });
    expect(await started([pinned(file), { ...pinned(folder), inode: '1' }])).toEqual({
      error: expect.stringMatching(
        /^ESTALE: .*data changed after it was checked .*so the program was not started$/,
      ),
    });
  });
});
