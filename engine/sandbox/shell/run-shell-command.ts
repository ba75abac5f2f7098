import type { Result } from '../../api/result';
import { startProgram } from '../../processes/program-spawner';
import { CappedOutput } from './capped-output';
import type { Confinement, ShellPlaces } from './confinement';
import { shellEnvironment } from './shell-environment';
import { shellInvocation } from './shell-invocation';

export interface ShellCommandRequest {
  command: string;
  confinement: Confinement;
  places: ShellPlaces;
  timeoutMs: number;
  /** Bytes kept of stdout, and separately of stderr. */
  maxOutputBytes: number;
  /** Bytes of output (both streams) after which the command is stopped rather than drained forever. */
  stopAfterBytes: number;
  signal?: AbortSignal;
}

export interface StreamText {
  text: string;
  totalBytes: number;
  truncated: boolean;
}

/** Why the engine killed a shell command (not a model's StopReason, why a model stopped writing). */
export type ShellStopCause = 'timeout' | 'output_limit' | 'aborted';

export interface ShellCommandRun {
  stdout: StreamText;
  stderr: StreamText;
  /** null when the command ended by a signal or was stopped. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** Why the command (and every process it started) was killed, if it was. */
  stopped: ShellStopCause | null;
}

/** What the command did, or why it could not start. */
export type ShellCommandResult = Result<ShellCommandRun, string>;

/**
 * How long to wait for the output pipes to close after the command's processes were killed: a process
 * that left the process group can still hold them open, and must not hold up the turn.
 */
const PIPE_GRACE_MS = 2000;

/**
 * Runs `/bin/sh -c command` in its own process group with no stdin and the minimal environment, confined
 * as `confinement` says. When the shell exits, when the timeout passes, when the output passes
 * `stopAfterBytes` or when `signal` aborts, the whole process group is killed, so nothing the command
 * started in the background outlives it. Never throws: a command that cannot start is `{ ok: false }`.
 */
export function runShellCommand(request: ShellCommandRequest): Promise<ShellCommandResult> {
  if (request.signal?.aborted)
    return Promise.resolve({ ok: false, error: 'the command was cancelled before it started' });
  const env = shellEnvironment(request.places.workingDirectory);
  const { file, args, places } = shellInvocation(request.confinement, request.places, request.command, env);
  const stdout = new CappedOutput(request.maxOutputBytes);
  const stderr = new CappedOutput(request.maxOutputBytes);

  return new Promise((resolve) => {
    let stopped: ShellStopCause | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    let settled = false;

    const stop = (reason: ShellStopCause) => {
      stopped ??= reason;
      program.signalGroup('SIGKILL');
    };
    const timeout = setTimeout(() => stop('timeout'), request.timeoutMs);
    const onAbort = () => stop('aborted');
    request.signal?.addEventListener('abort', onAbort, { once: true });

    const settle = (result: ShellCommandResult) => {
      if (settled) return;
      settled = true;
      program.release();
      clearTimeout(timeout);
      clearTimeout(graceTimer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const finish = () =>
      settle({
        ok: true,
        value: {
          stdout: streamText(stdout),
          stderr: streamText(stderr),
          exitCode: stopped === null ? (exit?.code ?? null) : null,
          exitSignal: stopped === null ? (exit?.signal ?? null) : null,
          stopped,
        },
      });

    const collect = (output: CappedOutput) => (chunk: Buffer) => {
      output.push(chunk);
      if (stdout.totalBytes + stderr.totalBytes > request.stopAfterBytes) stop('output_limit');
    };
    const program = startProgram(
      { file, args, cwd: request.places.workingDirectory, env, places },
      {
        stdout: collect(stdout),
        stderr: collect(stderr),
        error: (error) => settle({ ok: false, error: `could not start ${file}: ${error.message}` }),
        exit: (code, signal) => {
          exit = { code, signal };
          // The spawner has ended the rest of the group. A process that left the group can still hold
          // the pipes open: stop waiting for them.
          graceTimer = setTimeout(finish, PIPE_GRACE_MS);
        },
        close: finish,
      },
    );
  });
}

function streamText(output: CappedOutput): StreamText {
  return { text: output.text(), totalBytes: output.totalBytes, truncated: output.truncated };
}
