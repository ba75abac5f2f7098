#!/usr/bin/env node
// The `lemming` command: the engine's TypeScript runs directly through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const [command, org] = process.argv.slice(2);
// A second run of an org is refused before the rest of the CLI is loaded (which takes a second or more).
if ((command === 'run' || command === 'tick') && org !== undefined && !org.startsWith('-')) {
  const { runElsewhereMessage } = await import('../engine/cli/run-elsewhere.ts');
  const refusal = runElsewhereMessage(org);
  if (refusal) {
    process.stderr.write(`lemming ${command}: ${refusal}\n`);
    process.exit(1);
  }
}
const { main } = await import('../engine/cli/main.ts');
const { endQuietlyWhenReaderCloses } = await import('../engine/cli/cli-io.ts');
endQuietlyWhenReaderCloses(process.stdout);
endQuietlyWhenReaderCloses(process.stderr);
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
