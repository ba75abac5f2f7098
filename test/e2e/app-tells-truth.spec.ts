import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

test.use({ viewport: { width: 1280, height: 800 } });

async function openDemoCopy(lemming: LemmingHarness): Promise<string> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(lemming.page.locator('[data-app-state="open"]')).toBeVisible();
  return org;
}

function nav(lemming: LemmingHarness, view: RegExp) {
  return lemming.page.getByRole('navigation', { name: 'Main views' }).getByRole('button', { name: view });
}

test('Start uses Settings → "Seconds between ticks" unless the run bar is given another value', async ({
  lemming,
}) => {
  const org = await openDemoCopy(lemming);
  const { page } = lemming;
  const controls = page.getByRole('region', { name: 'Run controls' });
  const barSeconds = controls.getByRole('spinbutton', { name: 'Seconds between ticks' });
  // The demo org's org_config.json says 1 second.
  await expect(barSeconds).toHaveValue('1');

  await nav(lemming, /^Settings/).click();
  const running = page.getByRole('region', { name: 'Running' });
  await running.getByRole('spinbutton', { name: 'Seconds between ticks' }).fill('2.5');
  await running.getByRole('button', { name: 'Save run settings' }).click();
  await expect
    .poll(
      () => JSON.parse(readFileSync(join(org, 'lemming/config/org_config.json'), 'utf8')).base_turn_seconds,
    )
    .toBe(2.5);
  await expect(barSeconds).toHaveValue('2.5');

  await controls.getByRole('spinbutton', { name: 'Ticks to run', exact: true }).fill('1');
  await controls.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => lemming.calls.filter((call) => call.channel === 'run.start').length).toBe(1);
  expect(lemming.calls.find((call) => call.channel === 'run.start')?.input).toEqual({
    ticks: 1,
    intervalMs: 2500,
  });
});

test('the tick counter counts a step after a finished run as one tick, not "5 of 4"', async ({ lemming }) => {
  await openDemoCopy(lemming);
  const controls = lemming.page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('spinbutton', { name: 'Ticks to run', exact: true }).fill('2');
  await controls.getByRole('spinbutton', { name: 'Seconds between ticks' }).fill('0');
  await controls.getByRole('button', { name: 'Start' }).click();
  await expect(controls.getByTestId('ticks-done')).toHaveText('2 of 2 ticks done', { timeout: 30_000 });
  await expect(controls).toHaveAttribute('data-run-phase', 'idle');

  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 4');
  await expect(controls.getByTestId('ticks-done')).toHaveText('1 tick done');
});

test('a folder without an agents folder is refused, nothing is written, and an org is made there only when asked', async ({
  lemming,
}, testInfo) => {
  const folder = join(lemming.copyOfFolder(DEMO_ORG), 'shared', 'not-an-org');
  mkdirSync(folder, { recursive: true });
  const { page } = lemming;
  await lemming.openOrgAt(folder);

  const refusal = page.getByRole('alert').filter({ hasText: 'This folder is not an org' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('it has no “agents” folder');
  await expect(page.locator('[data-app-state="open"]')).toHaveCount(0);
  expect(readdirSync(folder)).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('not-an-org.png') });

  await refusal.getByRole('button', { name: 'Create an org in this folder' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  expect(existsSync(join(folder, 'agents'))).toBe(true);
  expect(JSON.parse(readFileSync(join(folder, 'lemming/config/org_config.json'), 'utf8'))).toMatchObject({
    base_turn_seconds: 10,
  });
});

test('going to the Timeline keeps the header, the run controls and the tabs in view', async ({ lemming }) => {
  await openDemoCopy(lemming);
  const { page } = lemming;
  await nav(lemming, /^Timeline/).click();
  await expect(page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
  await expect(page.locator('#main')).toBeFocused();

  expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0)).toBe(0);
  for (const part of [
    page.getByRole('banner'),
    page.getByRole('region', { name: 'Run controls' }),
    page.getByRole('navigation', { name: 'Main views' }),
  ])
    await expect(part).toBeInViewport({ ratio: 1 });
  const view = await page.locator('.timeline-view').boundingBox();
  expect(view!.y + view!.height).toBeLessThanOrEqual(800);
  // Nor does the keyboard shortcut scroll it away.
  await page.keyboard.press('Control+1');
  await page.keyboard.press('Control+2');
  expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0)).toBe(0);
});

test('the graph’s zoom buttons show their icons (no view-wide button rule pads them blank)', async ({
  lemming,
}) => {
  await openDemoCopy(lemming);
  for (const name of ['Zoom In', 'Zoom Out', 'Fit View']) {
    const icon = await lemming.page.getByRole('button', { name }).locator('svg').boundingBox();
    expect(icon!.width, `${name} shows its icon`).toBeGreaterThan(6);
  }
});

test('the agent page lays its tool switches out as its own stylesheet says, whatever the Tool Store’s says', async ({
  lemming,
}, testInfo) => {
  await openDemoCopy(lemming);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Open agent writer', exact: true }).click();
  const row = page.locator('.tool-row').first();
  const toggle = row.getByRole('switch');
  await expect(toggle).toBeVisible();
  const [switchBox, nameBox] = [await toggle.boundingBox(), await row.locator('.tool-name').boundingBox()];
  // On one line: the switch left of the tool's name (the Tool Store's column layout must not leak in).
  expect(Math.abs(switchBox!.y + switchBox!.height / 2 - (nameBox!.y + nameBox!.height / 2))).toBeLessThan(8);
  expect(switchBox!.x).toBeLessThan(nameBox!.x);
  await page.screenshot({ path: testInfo.outputPath('agent-tools.png') });
});

test('a settings value the engine cannot take is explained at its field, without a toast', async ({
  lemming,
}, testInfo) => {
  await openDemoCopy(lemming);
  const { page } = lemming;
  await nav(lemming, /^Settings/).click();
  const running = page.getByRole('region', { name: 'Running' });
  const seconds = running.getByRole('spinbutton', { name: 'Seconds between ticks' });

  await seconds.fill('0');
  await expect(seconds).toHaveAttribute('aria-invalid', 'true');
  await expect(seconds).toHaveAccessibleDescription(/above 0/);
  await seconds.fill('100000');
  await expect(seconds).toHaveAccessibleDescription('Enter at most 86,400 seconds (one day).');
  await expect(page.getByRole('button', { name: 'Save run settings' })).toBeDisabled();

  const lastTick = running.getByRole('spinbutton', { name: /Last tick/ });
  await seconds.fill('3');
  await lastTick.fill('2.5');
  await expect(lastTick).toHaveAccessibleDescription(/whole tick number/);
  await lastTick.fill('');
  await expect(lastTick).toHaveAttribute('aria-invalid', 'false');
  await page.getByRole('button', { name: 'Save run settings' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Run settings saved');
  await expect(page.getByRole('region', { name: 'Notifications' })).not.toContainText('base_turn_seconds');
  await page.screenshot({ path: testInfo.outputPath('settings-fields.png') });
});

test('the words a newcomer cannot guess are explained where they appear, and all together in Settings', async ({
  lemming,
}) => {
  await openDemoCopy(lemming);
  const { page } = lemming;
  const message = page.getByRole('region', { name: 'Message the agents' });
  await message.getByRole('button', { name: 'outbox', exact: true }).click();
  await expect(message.getByRole('note')).toContainText('Agents never talk directly');
  const credits = page.getByRole('region', { name: 'Credits' });
  await credits.getByRole('button', { name: 'credits', exact: true }).click();
  await expect(credits.getByRole('note')).toContainText('does not take its turn');
  await page.getByRole('button', { name: 'Open agent writer', exact: true }).click();
  await page.getByRole('button', { name: 'resume', exact: true }).click();
  await expect(page.getByRole('note')).toContainText('An agent’s description');
  // The file behind it is named only under Advanced.
  await expect(page.getByText('agents/writer/resume.json', { exact: true })).toBeHidden();

  await nav(lemming, /^Settings/).click();
  const running = page.getByRole('region', { name: 'Running' });
  await running.getByRole('button', { name: 'tick', exact: true }).click();
  await expect(running.getByRole('note')).toContainText('One round of the org');

  const glossary = page.getByRole('region', { name: 'Words the app uses' });
  for (const word of ['Tick', 'Outbox', 'Resume', 'Memory', 'Credits', 'Schedule'])
    await expect(glossary.getByRole('term').filter({ hasText: word })).toHaveCount(1);
});

test('the credits chart has axes with values and each tick’s spend, and the human operator has no budget', async ({
  lemming,
}, testInfo) => {
  await openDemoCopy(lemming);
  const { page } = lemming;
  const controls = page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 2');
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 3');

  const credits = page.getByRole('list', { name: 'Credit balances' });
  await expect(credits.getByRole('listitem', { name: 'manager', exact: true })).toBeVisible();
  await expect(credits.getByRole('listitem', { name: 'human', exact: true })).toHaveCount(0);
  await expect(
    page.getByRole('form', { name: 'Top up credits' }).getByRole('option', { name: 'human' }),
  ).toHaveCount(0);

  const manager = credits.getByRole('listitem', { name: 'manager', exact: true });
  const chart = manager.locator('svg.credit-chart');
  await expect(chart.locator('.chart-bar')).not.toHaveCount(0);
  await expect(chart.locator('.chart-label').first()).toBeVisible();
  await expect(chart.locator('.chart-label', { hasText: 'tick 1' })).toHaveCount(1);
  await expect(chart.locator('.chart-label', { hasText: /^0$/ })).toHaveCount(1);
  await expect(manager.getByTestId('credit-spend')).toHaveText(
    /^Spent [\d.,]+ credits in \d+ ticks? \([\d.,<]+% of the budget\)/,
  );
  await manager.screenshot({ path: testInfo.outputPath('credits-manager.png') });

  await nav(lemming, /^Tool Store/).click();
  const agentChoice = page.getByRole('combobox', { name: /Show tools for agent/ });
  await expect(agentChoice).not.toHaveValue('human');
  await expect(agentChoice.getByRole('option', { name: 'human' })).toHaveCount(0);
});
