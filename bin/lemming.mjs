#!/usr/bin/env -S node --max-semi-space-size=1 --optimize-for-size
// The `lemming` command: runs the compiled bundle that `npm ci` (the `prepare` script) or `npm run build` makes.
// --max-semi-space-size=1 (MiB): a run allocates fast and keeps little, so a big young generation only
// promotes garbage into old space; with it a 1,000-agent run holds ~230 MB instead of ~470 MB at tick 20.
// --optimize-for-size: V8 otherwise lets the old space grow to about five times what is live (~25 MB) before
// a full collection, and the pages it frees stay resident; with it a 1,000-agent run holds ~150 MB instead
// of ~230 MB (docs/BENCHMARKS.md, issue 14). bench/engine-memory.bench.ts reads the flags from the line above.
import { enableCompileCache } from 'node:module';

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

const [command, org] = process.argv.slice(2);
// A run takes the org's run lock before the rest of the CLI is loaded, so a second run of the org is
// refused at once.
if ((command === 'run' || command === 'tick') && org !== undefined && !org.startsWith('-')) {
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
    ask: terminalQuestions(process.stdin, process.stdout),
  },
  { lastResort: true },
);
