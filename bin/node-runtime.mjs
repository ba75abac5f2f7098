// Which Node runs `lemming`, and with which flags. The launcher (bin/lemming.mjs) and `npm install`'s
// preinstall check (scripts/check-node.mjs) import this file on whatever Node is first on PATH, before
// anything else, so it uses only syntax and APIs that old Nodes (14 and later) have.
import { readFileSync } from 'fs';

/**
 * The Node flags `lemming run` and `lemming tick` run with. --max-semi-space-size=1 (MiB): a run allocates
 * fast and keeps little, so a big young generation only promotes garbage into old space; with it a
 * 1,000-agent run holds ~230 MB instead of ~470 MB at tick 20. --optimize-for-size: V8 otherwise lets the
 * old space grow to about five times what is live (~25 MB) before a full collection, and the pages it
 * frees stay resident; with it a 1,000-agent run holds ~150 MB instead of ~230 MB (docs/BENCHMARKS.md,
 * issue 14). bench/engine-memory.bench.ts runs its child with them.
 */
export const RUN_NODE_FLAGS = ['--max-semi-space-size=1', '--optimize-for-size'];

/** package.json's engines.node, which reads ">=<major>.<minor>.<patch>" (.ci/run reads it too). */
function neededVersion() {
  const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const match = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(packageJson.engines.node);
  if (!match) throw new Error('package.json: engines.node must read ">=<major>.<minor>.<patch>"');
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * One line saying that this Node (`version` as process.version gives it, run from `execPath`) cannot run
 * LeMMing Desktop and how to get one that can; null when it can.
 */
export function unsupportedNode(version, execPath) {
  const needed = neededVersion();
  const found = version.replace(/^v/, '').split('.').map(Number);
  for (let part = 0; part < 3; part++) {
    if (found[part] > needed[part]) return null;
    if (found[part] < needed[part]) {
      return (
        `LeMMing Desktop needs Node.js ${needed.join('.')} or newer, and this is Node.js ${found.join('.')} ` +
        `(${execPath}). Install Node.js ${needed[0]} from https://nodejs.org/en/download ` +
        `(or run: nvm install ${needed[0]}), then try again.`
      );
    }
  }
  return null;
}
