import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../harness/lemming-fixture';

const DEMO_TICKS = 3;

test('the demo org opens on first run, runs offline, and its graph, timeline and credits fill in', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  await expect(page.locator('[data-app-state="none"]')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('first-run.png'), fullPage: true });

  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  expect(readdirSync(lemming.userOrgsFolder).length).toBeGreaterThan(0);

  const credits = page.getByRole('list', { name: 'Credit balances' });
  await expect(credits.getByRole('listitem')).not.toHaveCount(0);

  const controls = page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('spinbutton', { name: 'Ticks to run', exact: true }).fill(String(DEMO_TICKS));
  await controls.getByRole('spinbutton', { name: 'Seconds between ticks' }).fill('0');
  await controls.getByRole('button', { name: 'Start' }).click();
  await expect(controls.getByTestId('ticks-done')).toHaveText(`${DEMO_TICKS} of ${DEMO_TICKS} ticks done`, {
    timeout: 30_000,
  });
  await expect(controls).toHaveAttribute('data-run-phase', 'idle');
  await expect(controls.getByText('Finished the ticks asked for')).toBeVisible();

  // Credits: every agent that took a turn has a balance and a charted history.
  await expect(credits.locator('svg.credit-chart').first()).toBeVisible();
  const charted = credits.locator('svg.credit-chart');
  await expect.poll(() => charted.count()).toBeGreaterThan(0);
  const points = await charted.evaluateAll((svgs) =>
    svgs.map((svg) => Number(svg.getAttribute('data-points'))),
  );
  expect(points.every((count) => count > 0)).toBe(true);
  await expect(credits.getByTestId('balance').filter({ hasText: 'credits' }).first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('demo-after-run.png'), fullPage: true });

  // The graph: one node per agent.
  const nodes = page.locator('.react-flow__node');
  await expect(nodes.filter({ hasText: 'writer' })).toBeVisible();
  await expect(nodes).toHaveCount(4);

  // Only loopback traffic and nothing but the scripted model: the run used no network and no key.
  const failedCalls = lemming.calls.filter((call) => !(call.response as { ok: boolean }).ok);
  expect(failedCalls).toEqual([]);

  await page.getByRole('button', { name: /^Timeline/ }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('listitem').first()).toBeVisible();
  await expect(
    events
      .getByRole('button')
      .filter({ hasText: `tick ${DEMO_TICKS}` })
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('demo-timeline.png'), fullPage: true });

  const demoOrg = join(lemming.userOrgsFolder, readdirSync(lemming.userOrgsFolder)[0]!);
  expect(existsSync(join(demoOrg, '.lemming', 'timeline.sqlite'))).toBe(true);
});

test('stepping one tick at a time moves the tick on and fills the credit history', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  const controls = page.getByRole('region', { name: 'Run controls' });
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 1');

  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 2');
  await expect(controls.getByTestId('ticks-done')).toHaveText('1 tick done');
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 3');

  const credits = page.getByRole('list', { name: 'Credit balances' });
  await expect(credits.locator('svg.credit-chart').first()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('demo-stepped.png'), fullPage: true });
});
