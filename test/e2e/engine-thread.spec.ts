import { join } from 'node:path';
import { writeJsonlEvents } from '../../main/engine-host/test-support/jsonl-events-file';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

const EVENT_COUNT = 200_000;
/**
 * The bound (“Done means” 5) is 100 ms, and on a quiet machine no round trip comes near it
 * (docs/BENCHMARKS.md). On the shared 2-core test machine the scheduler alone stalls a round trip by up to
 * ~280 ms with no import running, so this test guards the failure that matters instead: with the engine
 * on main's thread, the same import held main for 3.7 s. The 100 ms bound is asserted by
 * main/engine-host/engine-thread.test.ts, where the prober runs in-process and sees no browser noise.
 */
const NO_STALL_ABOVE_MS = 1000;

test('while the engine thread imports 200,000 events, main goes on answering the page’s app.info without a stall', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(300_000);
  const file = join(lemming.copyOfFolder(join(DEMO_ORG, 'shared')), 'readings.jsonl');
  await writeJsonlEvents(file, EVENT_COUNT);
  await lemming.openOrgAt(lemming.copyOfFolder(DEMO_ORG));
  const { page } = lemming;
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  lemming.setImportFile(file);

  // The page asks main for app.info every 5 ms while the import it started runs, as a window would
  // go on talking to main; each answer's round trip is measured in the page.
  const { imported, roundTrips } = await page.evaluate(async () => {
    const times: number[] = [];
    let importing = true;
    const done = window.lemming.timeline.import().finally(() => {
      importing = false;
    });
    while (importing) {
      const started = performance.now();
      const info = await window.lemming.app.info();
      if (!info.ok) throw new Error(`app.info failed: ${info.error.message}`);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return { imported: await done, roundTrips: times };
  });

  expect(imported).toMatchObject({ ok: true, value: { path: file, imported: EVENT_COUNT, skippedCount: 0 } });
  const slowest = Math.max(...roundTrips);
  console.log(
    `app.info round trips during the import: ${roundTrips.length}, slowest ${slowest.toFixed(1)} ms`,
  );
  const sorted = [...roundTrips].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  testInfo.annotations.push({
    type: 'app.info round trips',
    description: `${roundTrips.length} during the import; median ${median.toFixed(1)} ms, slowest ${slowest.toFixed(1)} ms; over 100 ms: ${roundTrips.filter((time) => time > 100).length}`,
  });
  expect(roundTrips.length).toBeGreaterThan(10);
  expect(slowest).toBeLessThan(NO_STALL_ABOVE_MS);

  // The imported events are in the timeline the page reads.
  const search = await page.evaluate(() => window.lemming.timeline.page({ text: 'sky', limit: 1 }));
  expect(search).toMatchObject({
    ok: true,
    value: { rows: [expect.objectContaining({ agent: expect.any(String) })] },
  });
});
