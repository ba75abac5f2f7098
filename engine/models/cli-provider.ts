import { spawn } from 'node:child_process';
import { signalGroup, trackChildGroup } from '../processes/child-process-groups';
import { ModelCallError } from './model-call-error';
import type { ModelProvider, ModelRequest, ModelResponse } from './types';

/** Variables a program needs to start and find its files; nothing that could carry a key. */
const SAFE_ENV_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'SystemRoot',
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
];
const MAX_OUTPUT_BYTES = 1024 * 1024;
const KILL_GRACE_MS = 2_000;

export interface CliSettings {
  modelKey: string;
  /** The program and its fixed arguments; never changed by a call. */
  command: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  preventArgInjection: boolean;
}

/** The environment a cli model runs with: the safe variables of `from`, then the configured ones. */
export function cliEnvironment(
  from: Record<string, string | undefined>,
  configured: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SAFE_ENV_NAMES) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...configured };
}

/**
 * LeMMing's `cli` provider: runs a local program without a shell, with the last message as one
 * extra argument. stdout is the answer.
 */
export class CliProvider implements ModelProvider {
  readonly name = 'cli';
  readonly nativeTools = false;
  private readonly command: readonly string[];

  constructor(private readonly settings: CliSettings) {
    this.command = Object.freeze([...settings.command]);
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const prompt = request.messages[request.messages.length - 1]?.content ?? '';
    if (this.settings.preventArgInjection && prompt.startsWith('-')) {
      throw new ModelCallError({
        kind: 'refused',
        message: `model "${this.settings.modelKey}": the prompt starts with "-", so the program could read it as an option; refused (set prevent_arg_injection to false to allow it)`,
      });
    }
    if (prompt.includes('\0')) {
      throw new ModelCallError({
        kind: 'refused',
        message: `model "${this.settings.modelKey}": the prompt contains a NUL character, which no program argument can hold`,
      });
    }
    const started = performance.now();
    const result = await runProgram([...this.command, prompt], this.settings, request.signal);
    const text =
      result.exitCode !== 0 && result.stderr ? `${result.stdout}\n[STDERR]: ${result.stderr}` : result.stdout;
    return {
      text,
      toolCalls: [],
      usage: null,
      finishReason: result.truncated
        ? 'length'
        : result.exitCode === 0
          ? 'stop'
          : `exit_${result.exitCode ?? result.signal ?? 'unknown'}`,
      raw: result.stdout,
      latencyMs: performance.now() - started,
    };
  }
}

interface ProgramResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  truncated: boolean;
}

function runProgram(
  argv: string[],
  settings: CliSettings,
  signal: AbortSignal | undefined,
): Promise<ProgramResult> {
  const [program, ...args] = argv as [string, ...string[]];
  const model = `model "${settings.modelKey}"`;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ModelCallError({ kind: 'cancelled', message: `${model}: the call was cancelled` }));
      return;
    }
    const child = spawn(program, args, {
      cwd: settings.cwd,
      env: settings.env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      // Its own process group, so a timeout also ends whatever the program started.
      detached: process.platform !== 'win32',
    });
    const release = child.pid === undefined ? () => false : trackChildGroup(child.pid);
    const stdout = new CappedBuffer();
    const stderr = new CappedBuffer();
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));

    let ending: ModelCallError | null = null;
    const stop = (error: ModelCallError) => {
      ending ??= error;
      if (child.pid === undefined) return;
      const pid = child.pid;
      signalGroup(pid, 'SIGTERM');
      setTimeout(() => signalGroup(pid, 'SIGKILL'), KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(
      () =>
        stop(
          new ModelCallError({
            kind: 'timeout',
            retryable: true,
            attempts: 1,
            message: `${model}: ${program} did not finish within ${settings.timeoutMs} ms`,
          }),
        ),
      settings.timeoutMs,
    );
    const onAbort = () =>
      stop(
        new ModelCallError({ kind: 'cancelled', attempts: 1, message: `${model}: the call was cancelled` }),
      );
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };

    child.on('error', (error: NodeJS.ErrnoException) => {
      finish();
      release();
      const reason =
        error.code === 'ENOENT'
          ? 'the program was not found'
          : error.code === 'EACCES'
            ? 'the program is not executable'
            : error.message;
      reject(
        new ModelCallError({
          kind: 'config',
          message: `${model}: cannot run "${program}" in ${settings.cwd}: ${reason}`,
        }),
      );
    });
    // The answer is complete when the program exits: whatever it left running in the background is ended,
    // which also closes the output pipes such a process would otherwise hold open.
    child.on('exit', () => {
      if (child.pid !== undefined && process.platform !== 'win32') signalGroup(child.pid, 'SIGKILL');
    });
    child.on('close', (exitCode, exitSignal) => {
      finish();
      release();
      if (ending) {
        reject(ending);
        return;
      }
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        exitCode,
        signal: exitSignal,
        truncated: stdout.truncated,
      });
    });
  });
}

/** Keeps the first MAX_OUTPUT_BYTES of a stream and remembers whether more came. */
class CappedBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  add(chunk: Buffer): void {
    const room = MAX_OUTPUT_BYTES - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
