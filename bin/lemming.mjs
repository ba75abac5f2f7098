#!/usr/bin/env node
// The `lemming` command: the engine's TypeScript runs directly through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../engine/cli/main.ts');
const { endQuietlyWhenReaderCloses } = await import('../engine/cli/cli-io.ts');
endQuietlyWhenReaderCloses(process.stdout);
endQuietlyWhenReaderCloses(process.stderr);
process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
