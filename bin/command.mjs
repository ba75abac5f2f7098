// The `lemming` command, loaded by bin/lemming.mjs once it has checked that this Node can run it. It runs
// the compiled bundle that `npm ci` (the `prepare` script) or `npm run build` makes.
import { enableCompileCache } from 'node:module';
import { RUN_NODE_FLAGS } from './node-runtime.mjs';

const [command, org] = process.argv.slice(2);
const runsTicks = command === 'run' || command === 'tick';

// V8 reads its heap flags only from the command line (set later, --max-semi-space-size changes nothing),
// and a launcher line cannot carry them everywhere (`#!/usr/bin/env -S` is missing from busybox's env).
// So a run restarts itself in place with them: execve keeps the process id, stdio and signals. Windows has
// no execve; there a run goes on without them, which costs memory, not correctness.
if (runsTicks && process.execve) {
  const named = (flag) => flag.split('=')[0];
  const given = new Set(process.execArgv.map(named));
  const missing = RUN_NODE_FLAGS.filter((flag) => !given.has(named(flag)));
  if (missing.length > 0) {
    process.execve(process.execPath, [
      process.execPath,
      ...missing,
      ...process.execArgv,
      ...process.argv.slice(1),
    ]);
  }
}

// V8 keeps the compiled bundle on disk (in the OS temp folder), so later starts skip parsing it.
enableCompileCache();

/** A module of the compiled CLI, or a clear word and exit 1 when it has not been built. */
async function load(name) {
  try {
    return await import(`../out/cli/${name}.mjs`);
  } catch (error) {
    // A disk that fails while the program's own files are read: one plain line, as for a failed run.
    if (typeof error?.syscall === 'string') {
      process.stderr.write(
        `lemming: could not read its own program files (${error.message}). Check the disk, or install LeMMing Desktop again.\n`,
      );
      process.exit(1);
    }
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/out[\\/]cli[\\/]/.test(String(error.message)))
      throw error;
    process.stderr.write(
      'lemming: the command is not built yet. Run `npm run build:cli` (npm ci does it for you).\n',
    );
    process.exit(1);
  }
}

// A run takes the org's run lock before the rest of the CLI is loaded, so a second run of the org is
// refused at once.
if (runsTicks && org !== undefined && !org.startsWith('-')) {
  const { claimRunAhead } = await load('run-elsewhere');
  const refusal = claimRunAhead(org, `lemming ${command}`);
  if (refusal) {
    process.stderr.write(`lemming ${command}: ${refusal}\n`);
    process.exit(1);
  }
}
const { main } = await load('lemming');
const { endQuietlyWhenReaderCloses, terminalQuestions } = await load('cli-io');
endQuietlyWhenReaderCloses(process.stdout);
endQuietlyWhenReaderCloses(process.stderr);
process.exitCode = await main(
  process.argv.slice(2),
  {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    ask: terminalQuestions(process.stdin, process.stdout),
  },
  { lastResort: true },
);
