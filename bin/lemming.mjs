#!/usr/bin/env node
// The `lemming` command. Whatever Node is first on PATH reads this file, so it uses only syntax old Nodes
// parse and imports nothing a newer Node added: it checks the version first and loads the command
// (bin/command.mjs) only on a Node that can run it.
import { unsupportedNode } from './node-runtime.mjs';

const refusal = unsupportedNode(process.version, process.execPath);
if (refusal) {
  process.stderr.write('lemming: ' + refusal + '\n');
  process.exitCode = 1;
} else {
  import('./command.mjs');
}
