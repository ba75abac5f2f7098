#!/usr/bin/env node
// The `lemming` command: runs the compiled bundle that `npm ci` (the `prepare` script) or `npm run build` makes.
import { enableCompileCache } from 'node:module';

// V8 keeps the compiled bundle on disk (in the OS temp folder), so later starts skip parsing it.
enableCompileCache();
let cli;
try {
  cli = await import('../out/cli/lemming.mjs');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/out[\\/]cli[\\/]lemming\.mjs/.test(String(error.message)))
    throw error;
  process.stderr.write(
    'lemming: the command is not built yet. Run `npm run build:cli` (npm ci does it for you).\n',
  );
  process.exit(1);
}
process.exitCode = await cli.main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
