import { expect, test } from '../harness/lemming-fixture';

test('a downloaded update asks before restarting: "Later" waits, "Restart now" installs', async ({
  lemming,
}, testInfo) => {
  const { page, updates, updater } = lemming;
  await lemming.gotoApp();
  const prompt = page.getByRole('alertdialog', { name: 'An update is ready' });

  updates.start();
  expect(updater.checks).toBe(1);
  updater.emit('update-available', { version: '0.2.0' });
  await page.waitForTimeout(200);
  await expect(prompt).toBeHidden();

  updater.emit('update-downloaded', { version: '0.2.0' });
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('LeMMing Desktop 0.2.0 has been downloaded. Restart now to use it?');
  await page.screenshot({ path: testInfo.outputPath('update-ready.png') });

  await prompt.getByRole('button', { name: 'Later' }).click();
  await expect(prompt).toBeHidden();
  expect(updater.installs).toBe(0);

  updater.emit('update-downloaded', { version: '0.3.0' });
  await expect(prompt).toContainText('LeMMing Desktop 0.3.0 has been downloaded.');
  await prompt.getByRole('button', { name: 'Restart now' }).click();
  await expect.poll(() => updater.installs).toBe(1);
  expect(lemming.calls.map((call) => call.channel)).toContain('updates.restartNow');
});

test('the Settings switch turns automatic updates off, and then no update is offered', async ({
  lemming,
}, testInfo) => {
  const { page, updates, updater } = lemming;
  await lemming.gotoApp();
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await page.getByRole('button', { name: /^Settings/ }).click();

  const updatesPanel = page.getByRole('region', { name: 'Updates' });
  const toggle = updatesPanel.getByRole('switch', { name: 'Check for updates automatically' });
  await expect(toggle).toBeChecked();
  updates.start();
  updater.emit('update-not-available', { version: '0.1.0' });
  await expect(updatesPanel.getByTestId('update-status')).toHaveText('You have the newest version.');

  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect(updatesPanel.getByTestId('update-status')).toHaveText(
    'Updates are off. Turn them on to get new versions automatically.',
  );
  await updatesPanel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('updates-off.png') });
  expect(updates.status()).toMatchObject({ enabled: false, state: 'off', offReason: 'turned-off' });

  updater.emit('update-downloaded', { version: '0.2.0' });
  await page.waitForTimeout(200);
  await expect(page.getByRole('alertdialog', { name: 'An update is ready' })).toBeHidden();

  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(updatesPanel.getByTestId('update-status')).toHaveText('Checking for a new version…');
  expect(updater.checks).toBe(2);
});
