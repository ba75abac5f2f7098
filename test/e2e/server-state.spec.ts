import { join } from 'node:path';
import {
  UPSTREAM_FIXTURES,
  expect,
  test,
  type LemmingHarness,
  type RecordedCall,
} from '../harness/lemming-fixture';

// Issue 28, Done-means 2: the renderer's one server-state layer asks each read once per change, and a
// fix reaches the run bar at once.

async function openDemo(lemming: LemmingHarness) {
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(lemming.page.locator('[data-app-state="open"]')).toBeVisible();
}

/** How often each call was made, by channel and input. */
function timesAsked(calls: RecordedCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { channel, input } of calls) {
    const key = `${String(channel)} ${JSON.stringify(input)}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Waits until the page has made no call for half a second (what a view asked when it opened is answered). */
async function settled(lemming: LemmingHarness): Promise<void> {
  let seen = -1;
  await expect
    .poll(
      () => {
        const now = lemming.calls.length;
        const still = now === seen;
        seen = now;
        return still;
      },
      { intervals: [500] },
    )
    .toBe(true);
}

/** The calls the page makes from clicking Step one tick until the tick is over and the page is still. */
async function callsOfOneStep(lemming: LemmingHarness): Promise<RecordedCall[]> {
  await settled(lemming);
  const controls = lemming.page.getByRole('region', { name: 'Run controls' });
  const tick = await controls.getByTestId('current-tick').textContent();
  const before = lemming.calls.length;
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).not.toHaveText(tick ?? '');
  await expect(controls).toHaveAttribute('data-run-phase', 'idle');
  await settled(lemming);
  return lemming.calls.slice(before);
}

test('one Step with the Tool Store, then with the org graph, open asks each read at most once', async ({
  lemming,
}, testInfo) => {
  await openDemo(lemming);
  const { page } = lemming;
  await expect(page.locator('.org-graph-with-card')).toBeVisible();

  await lemming.showView('Tool Store');
  await expect(page.getByRole('heading', { name: 'Tool Store', level: 2 })).toBeVisible();
  const withToolStore = timesAsked(await callsOfOneStep(lemming));
  expect(withToolStore).toMatchObject({ 'run.step {}': 1, 'connectors.list {}': 1, 'tools.catalog {}': 1 });
  expect(Object.entries(withToolStore).filter(([, times]) => times > 1)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('tool-store-after-step.png') });

  await lemming.showView('Org');
  await expect(page.locator('.org-graph-with-card')).toBeVisible();
  const withGraph = timesAsked(await callsOfOneStep(lemming));
  expect(withGraph).toMatchObject({ 'run.step {}': 1, 'org.graph {}': 1 });
  expect(Object.entries(withGraph).filter(([, times]) => times > 1)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('graph-after-step.png') });
});

test('a 3-tick run asks whether the agents will run at most once a tick and once after', async ({
  lemming,
}) => {
  await openDemo(lemming);
  await settled(lemming);
  const controls = lemming.page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('spinbutton', { name: 'Ticks to run', exact: true }).fill('3');
  await controls.getByRole('spinbutton', { name: 'Seconds between ticks' }).fill('0');
  const before = lemming.calls.length;
  await controls.getByRole('button', { name: 'Start' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 4');
  await expect(controls).toHaveAttribute('data-run-phase', 'idle');
  await settled(lemming);
  const readiness = lemming.calls.slice(before).filter((call) => call.channel === 'run.readiness');
  // Before the layer it was asked 11 times: on every phase the run passed through and every agent change.
  expect(readiness.length).toBeLessThanOrEqual(4);
});

test('a key pasted in Settings clears the run bar’s “will not run” within one second', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  const note = page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('status', { name: 'Before you start' });
  await expect(note).toContainText(/agents will not run/);

  await lemming.showView('Settings');
  const card = page
    .getByRole('list', { name: 'Models' })
    .getByRole('listitem', { name: 'gpt-4o', exact: true });
  await card.getByLabel(/^API key/).fill('sk-pasted-for-the-run-bar-51c9');
  await card.getByRole('button', { name: 'Save gpt-4o' }).click();
  await expect.poll(() => lemming.calls.filter((call) => call.channel === 'models.setKey').length).toBe(1);
  await expect(note).toBeHidden({ timeout: 1000 });
  await page.screenshot({ path: testInfo.outputPath('run-bar-after-key.png') });
});
