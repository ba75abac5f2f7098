#!/usr/bin/env node
// The `lemming` command: the engine's TypeScript runs directly through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const [command, org] = process.argv.slice(2);
// A run takes the org's run lock before the rest of the CLI is loaded (which takes a second or more), so a
// second run of the org is refused at once.
if ((command === 'run' || command === 'tick') && org !== undefined && !org.startsWith('-')) {
  const { claimRunAhead } = await import('../engine/cli/run-elsewhere.ts');
  const refusal = claimRunAhead(org, `lemming ${command}`);
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
