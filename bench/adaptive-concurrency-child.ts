// Runs an org with our engine for some ticks and prints one JSON line: each tick's wall time, its turns
// that did not complete, and each model server's limit and the turns' wait from the tick's record.
// adaptive-concurrency.bench.ts compiles this file and runs it in its own Node process, as the CLI runs.
import { OrgEngine } from '../engine/run/org-engine';
import { trustAsIs } from '../engine/trust/test-support/trust-as-is';

const [orgPath, ticks] = process.argv.slice(2);

const engine = await OrgEngine.open({
  trust: await trustAsIs(orgPath!),
  orgPath: orgPath!,
  env: process.env,
});
try {
  const results = [];
  for (let tick = 1; tick <= Number(ticks); tick += 1) {
    const began = performance.now();
    const report = await engine.runTick();
    const wallMs = performance.now() - began;
    const record = engine.timeline.db
      .prepare("SELECT json FROM events WHERE kind = 'tick_completed' AND tick = ?")
      .pluck()
      .get(report.tick) as string;
    const { server_limits: limits, server_wait: wait } = JSON.parse(record) as {
      server_limits: { limit: number }[];
      server_wait: { total_ms: number; longest_ms: number };
    };
    results.push({
      wallMs,
      failed: report.turns.filter((turn) => turn.status !== 'completed').length,
      limit: limits[0]?.limit ?? null,
      longestWaitMs: wait.longest_ms,
    });
  }
  process.stdout.write(`${JSON.stringify(results)}\n`);
} finally {
  engine.close();
}
