import { createRedactor, type NamedSecret } from '../secrets/redactor';
/** Where a command writes; tests pass their own. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** The terminal's width when stdout is one; help is laid out for 80 columns otherwise. */
  columns?: number;
  /** Asks the person at the terminal and returns their line; absent when no one is there (not a TTY). */
  ask?: (question: string, signal: AbortSignal) => Promise<string>;
}

/**
 * What a command writes to: the caller's io, with every write redacted of each secret the command has
 * opened (docs/ARCHITECTURE.md, “Secrets”), so no command prints a stored value, whatever it prints.
 */
export interface CommandIo extends CliIo {
  /** From now on, writes are redacted of these secrets too. */
  redactSecrets(secrets: Iterable<NamedSecret>): void;
}

export function redactingIo(io: CliIo): CommandIo {
  const redactor = createRedactor();
  const redacted = (stream: CliIo['stdout']) => ({
    write: (text: string) => stream.write(redactor.redactText(text)),
  });
  return {
    ...io,
    stdout: redacted(io.stdout),
    stderr: redacted(io.stderr),
    redactSecrets(secrets) {
      for (const secret of secrets) redactor.add(secret);
    },
  };
}

/** `ask` for a CliIo when stdin and stdout are a terminal; undefined otherwise (an unattended run). */
export function terminalQuestions(
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
): CliIo['ask'] | undefined {
  if (!stdin.isTTY || !stdout.isTTY) return undefined;
  return async (question, signal) => {
    const { createInterface } = await import('node:readline/promises');
    const lines = createInterface({ input: stdin, output: stdout });
    try {
      return await lines.question(question, { signal });
    } finally {
      lines.close();
    }
  };
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the command was called: exit code 2, with the command's usage. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command could not do its job: exit code 1, with a message that says why. */
export class CliFailure extends Error {
  override name = 'CliFailure';
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A reader that stops early (`lemming status | head -1`) closes the pipe; the next write fails with
 * EPIPE. That is the reader's choice, not an error: end quietly with the exit code so far.
 */
export function endQuietlyWhenReaderCloses(
  stream: NodeJS.WriteStream,
  exit: (code: number) => never = process.exit,
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT_OK);
  });
}
