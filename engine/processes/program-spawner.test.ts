import { describe, expect, it } from 'vitest';
import {
  runningProgramCount,
  startProgram,
  startProgramHere,
  type ProgramRequest,
  type RunningProgram,
} from './program-spawner';
import { processExists } from './test-support/process-liveness';

type Start = (request: ProgramRequest, listeners: Parameters<typeof startProgram>[1]) => RunningProgram;

/** Runs a program to its end and tells what the listeners heard. */
function run(start: Start, file: string, args: string[]) {
  return new Promise<{
    stdout: string;
    stderr: string;
    exit?: number | null;
    close?: number | null;
    error?: string;
  }>((resolve) => {
    const heard = { stdout: '', stderr: '' };
    start(
      { file, args, cwd: '/', env: { PATH: process.env.PATH } },
      {
        stdout: (chunk) => (heard.stdout += chunk.toString()),
        stderr: (chunk) => (heard.stderr += chunk.toString()),
        error: (error) => resolve({ ...heard, error: error.code }),
        exit: (code) => Object.assign(heard, { exit: code }),
        close: (code) => resolve({ ...heard, close: code }),
      },
    );
  });
}

// The programs these tests start are /bin/sh scripts, which Windows does not have.
describe.skipIf(process.platform === 'win32')(
  'programs started through the helper and from the engine itself',
  () => {
    for (const [where, start] of [
      ['through the spawner helper', startProgram],
      ['from this process (the app)', startProgramHere],
    ] as const) {
      it(`${where}: output, exit and close arrive as the program gave them`, async () => {
        expect(await run(start, '/bin/sh', ['-c', 'echo out; echo err >&2; exit 3'])).toEqual({
          stdout: 'out\n',
          stderr: 'err\n',
          exit: 3,
          close: 3,
        });
        expect(runningProgramCount()).toBe(0);
      });

      it(`${where}: when the program exits, what it left running in its group is ended`, async () => {
        const heard = await new Promise<string>((resolve) => {
          let stdout = '';
          start(
            {
              file: '/bin/sh',
              args: ['-c', 'sleep 30 & echo $!'],
              cwd: '/',
              env: { PATH: process.env.PATH },
            },
            {
              stdout: (chunk) => (stdout += chunk.toString()),
              stderr: () => undefined,
              error: () => resolve('error'),
              // No exit listener: the close alone is reported.
              close: () => resolve(stdout),
            },
          );
        });
        const background = Number(heard.trim());
        expect(background).toBeGreaterThan(0);
        await expect.poll(() => processExists(background), { timeout: 5_000 }).toBe(false);
        expect(runningProgramCount()).toBe(0);
      });

      it(`${where}: a missing program is an error with its code`, async () => {
        expect((await run(start, '/no/such/program', [])).error).toBe('ENOENT');
        expect(runningProgramCount()).toBe(0);
      });
    }
  },
);
