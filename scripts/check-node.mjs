// The first step of `npm install` (preinstall), `npm start` and `npm test`: on a Node too old for LeMMing
// Desktop, one line saying so and how to get one that can, and the command stops (on Node 20 the tests
// would otherwise crash inside better-sqlite3). On `npm install`, .npmrc's engine-strict refuses first;
// this line is for installs that go past it (--force, --engine-strict=false, other package managers).
// Old syntax only, as in bin/node-runtime.mjs.
import { unsupportedNode } from '../bin/node-runtime.mjs';

const refusal = unsupportedNode(process.version, process.execPath);
if (refusal) {
  process.stderr.write(refusal + '\n');
  process.exitCode = 1;
}
