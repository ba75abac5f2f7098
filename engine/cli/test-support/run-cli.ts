import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { REPO_ROOT } from '../../run/test-support/temp-org';
import { CONFIG_DIR_VARIABLE } from '../../trust/trust-file-location';
import { main } from '../main';

let configDir: string | undefined;

/**
 * The folder the CLI keeps its trust record in during this test file (LEMMING_CONFIG_DIR): never the
 * person's own configuration folder. Orgs are temp folders of their own, so tests do not share trust.
 */
export function cliConfigDir(): string {
  configDir ??= mkdtempSync(join(tmpdir(), 'lemming-config-'));
  return configDir;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `lemming` command line in this process, as the binary would: `env` is its whole environment
 * (none unless given, but for LEMMING_CONFIG_DIR, which is cliConfigDir() unless given) and `input` its stdin.
 */
export async function runCli(
  argv: readonly string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { [CONFIG_DIR_VARIABLE]: cliConfigDir(), ...options.env },
    ...(options.input === undefined ? {} : { stdin: Readable.from([options.input]) }),
  } as Parameters<typeof main>[1]);
  return { code, stdout, stderr };
}

export interface ProcessRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the start to the exit. */
  ms: number;
}

const LEMMING = join(REPO_ROOT, 'bin', 'lemming.mjs');

/**
 * The real `lemming` binary in its own process, with nothing but PATH, LEMMING_CONFIG_DIR (cliConfigDir) and
 * `env` in its environment (no network keys); `onStdout` sees the output so far and may kill it.
 */
export function runLemmingProcess(
  args: readonly string[],
  onStdout?: (text: string, kill: () => void) => void,
  env: Record<string, string> = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [LEMMING, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', [CONFIG_DIR_VARIABLE]: cliConfigDir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout, () => child.kill('SIGKILL'));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
  });
}
