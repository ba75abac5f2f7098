import { appendFileSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const LOG_FILE = 'lemming-desktop.log';

export interface AppLogOptions {
  /** The OS's log folder for the app (`app.getPath('logs')`). */
  folder: string;
  /** Every line passes through it before it is written: the secret store's values become their names. */
  redact: (text: string) => string;
  /** A file grows to this size before it is rotated; `keep` older files are kept beside it. */
  maxBytes?: number;
  keep?: number;
  now?: () => Date;
}

/** The app's one log: main's errors and the engine thread's, each line redacted, in rotating files. */
export interface AppLog {
  readonly folder: string;
  error(context: string, error: unknown): void;
  info(context: string, message: string): void;
  /** The log files, newest first. */
  files(): string[];
}

export function openAppLog(options: AppLogOptions): AppLog {
  const { folder, redact, maxBytes = 1_000_000, keep = 4, now = () => new Date() } = options;
  const current = join(folder, LOG_FILE);
  const rotated = (index: number) => join(folder, LOG_FILE.replace(/\.log$/, `.${index}.log`));
  mkdirSync(folder, { recursive: true });

  const rotateIfFull = () => {
    let size: number;
    try {
      size = statSync(current).size;
    } catch {
      return;
    }
    if (size < maxBytes) return;
    rmSync(rotated(keep), { force: true });
    for (let index = keep - 1; index >= 1; index--) {
      try {
        renameSync(rotated(index), rotated(index + 1));
      } catch {
        // That older file does not exist yet.
      }
    }
    renameSync(current, rotated(1));
  };

  const write = (level: 'error' | 'info', context: string, text: string) => {
    const line = `${now().toISOString()} ${level} [${context}] ${text}`;
    try {
      rotateIfFull();
      appendFileSync(current, `${redact(line).replace(/\n(?!$)/g, '\n    ')}\n`, { mode: 0o600 });
    } catch (error) {
      // The log folder cannot be written: the terminal is the last place left to say so.
      console.error('[log] could not write the log file:', error instanceof Error ? error.message : error);
      console.error(redact(line));
    }
  };

  return {
    folder,
    error: (context, error) => write('error', context, describe(error)),
    info: (context, message) => write('info', context, message),
    files: () =>
      readdirSync(folder)
        .filter((name) => name.startsWith(LOG_FILE.replace(/\.log$/, '')))
        .sort((a, b) => rank(a) - rank(b))
        .map((name) => join(folder, name)),
  };
}

function rank(name: string): number {
  const index = /\.(\d+)\.log$/.exec(name);
  return index ? Number(index[1]) : 0;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : JSON.stringify(error);
}
