// Runs an org for some ticks and prints the process's RSS after each tick as `RSS <tick> <bytes>`.
// engine-memory.bench.ts compiles this file and runs it in its own Node process, as the CLI runs.
import { OrgEngine } from '../engine/run/org-engine';
import { trustAsIs } from '../engine/trust/test-support/trust-as-is';

const [orgPath, ticks] = process.argv.slice(2);
const engine = await OrgEngine.open({
  trust: await trustAsIs(orgPath!),
  orgPath: orgPath!,
  env: {},
});
try {
  for (let tick = 1; tick <= Number(ticks); tick += 1) {
    await engine.runTick();
    process.stdout.write(`RSS ${tick} ${process.memoryUsage.rss()}\n`);
  }
} finally {
  engine.close();
}
