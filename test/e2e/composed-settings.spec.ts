import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stockToolFile } from '../../engine/tools/test-support/stock-tool';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });

test("a composed tool's drawer shows the fields of its own settings, refuses a bad address at its field, and saves a good one to the org", async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  mkdirSync(join(org, 'tools'));
  writeFileSync(join(org, 'tools', 'stock.yaml'), stockToolFile('stock.example'));
  const settingsFile = join(org, 'lemming', 'config', 'tool-settings.json');
  writeFileSync(settingsFile, '{\n  "note": "kept as it is",\n  "settings": {}\n}\n');
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Tool Store');
  const { page } = lemming;

  const card = page.getByRole('listitem', { name: 'Stock level' });
  await expect(card).toContainText('Needs setup');
  await expect(card).toContainText('its address (STOCK_URL) is not filled in');
  await card.getByRole('button', { name: /^Set up/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Stock level settings' });
  // The address is a setting (shown, saved in the org); the key is a secret (write-only).
  const address = drawer.getByRole('textbox', { name: 'Address of the service' });
  await expect(address).toBeVisible();
  await expect(drawer.getByRole('region', { name: 'Secrets' })).toContainText('STOCK_KEY');
  await expect(drawer.getByRole('region', { name: 'Secrets' })).not.toContainText('STOCK_URL');

  await address.fill('https://stock.example/v1');
  await drawer.getByRole('button', { name: 'Save settings' }).click();
  const problems = drawer.getByRole('alert', { name: 'Problems with Address of the service' });
  await expect(problems).toContainText('is not an address of the form https://api.example.com');
  expect(readFileSync(settingsFile, 'utf8')).toBe('{\n  "note": "kept as it is",\n  "settings": {}\n}\n');
  await drawer.evaluate((element) => element.scrollTo(0, 0));
  // Toasts come and go with timing; the org folder is a temp path that changes from run to run.
  await page.locator('.toasts').evaluate((element: HTMLElement) => (element.style.display = 'none'));
  await page.locator('.org-path').evaluate((element: HTMLElement) => (element.style.visibility = 'hidden'));
  await expect(page).toHaveScreenshot('composed-settings-refused.png', {
    animations: 'disabled',
    caret: 'hide',
  });

  await address.fill('https://stock.example');
  await drawer.getByRole('button', { name: 'Save settings' }).click();
  await expect(problems).toHaveCount(0);
  await expect
    .poll(() => JSON.parse(readFileSync(settingsFile, 'utf8')) as unknown)
    .toEqual({
      note: 'kept as it is',
      settings: { STOCK_URL: 'https://stock.example' },
    });
  expect(existsSync(join(org, 'lemming', 'config', 'policy.json'))).toBe(false);
  await expect(card).toContainText('STOCK_KEY, which is not set');
  await drawer.getByText('Advanced').click();
  await expect(drawer).toContainText('Saved in lemming/config/tool-settings.json as STOCK_URL.');
  await page.screenshot({ path: testInfo.outputPath('composed-settings-saved.png') });
});
