// `npm install`'s preinstall step: on a Node too old for LeMMing Desktop, one line saying so and how to get
// one that can, and the install stops. .npmrc's engine-strict refuses first on npm; this line is for
// installs that go past it (--force, --engine-strict=false, other package managers). Old syntax only, as
// in bin/node-runtime.mjs.
import { unsupportedNode } from '../bin/node-runtime.mjs';

const refusal = unsupportedNode(process.version, process.execPath);
if (refusal) {
  process.stderr.write(refusal + '\n');
  process.exitCode = 1;
}
