import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

/** Serious and critical accessibility problems on the page as it is. */
async function seriousProblems(lemming: LemmingHarness) {
  const results = await new AxeBuilder({ page: lemming.page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
}

test('an org exported from the app and imported again opens untrusted, its trust screen listing the bundle’s programs, addresses and missing secrets', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({ mcpServers: { files: { command: process.execPath, args: ['files-server.mjs'] } } }),
  );
  const modelsFile = join(org, 'lemming/config/models.json');
  const models = JSON.parse(readFileSync(modelsFile, 'utf8'));
  models.helper = {
    provider: 'openai-compatible',
    model_name: 'helper-mini',
    provider_config: { base_url: 'https://models.example.com/v1', api_key_secret: 'HELPER_API_KEY' },
  };
  writeFileSync(modelsFile, JSON.stringify(models, null, 2));
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);

  // File → Export Org… in the app's menu leads here as main's push does.
  lemming.pushFromMain('app.navigate', { view: 'org', open: 'export-bundle' });
  const dialog = page.getByRole('dialog', { name: 'Export this org as a bundle' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Export org…' }).click();
  await expect(dialog).toContainText('files go in');
  await expect(dialog).toContainText('HELPER_API_KEY');
  await dialog.getByRole('radio', { name: /With memory/ }).check();
  await expect(dialog.getByRole('list').first()).toContainText("this computer's run state");
  await page.screenshot({ path: testInfo.outputPath('export-dialog.png'), fullPage: true });
  expect(await seriousProblems(lemming)).toEqual([]);
  const bundle = join(org, '..', 'shared.lemming.zip');
  lemming.setExportFile(bundle);
  await dialog.getByRole('button', { name: 'Export…' }).click();
  await expect(page.getByText('Exported the org')).toBeVisible();

  const folder = join(org, '..', 'imported');
  mkdirSync(folder);
  lemming.setImportFile(bundle);
  lemming.setPickedFolder(folder);
  const imported = await page.evaluate(() => window.lemming.bundle.import({}));
  expect(imported.ok).toBe(true);
  await lemming.openOrgAt(folder);

  const screen = page.getByRole('region', { name: 'Do you trust this org?' });
  await expect(screen).toBeVisible();
  const origin = screen.getByRole('region', { name: 'Where this org comes from' });
  await expect(origin).toContainText('shared.lemming.zip');
  await expect(origin.getByRole('list', { name: 'Programs the bundle says it starts' })).toContainText(
    `${process.execPath} files-server.mjs`,
  );
  await expect(origin.getByRole('list', { name: 'Places the bundle says it contacts' })).toContainText(
    'https://models.example.com/v1',
  );
  const secrets = origin.getByRole('list', { name: 'Secrets it needs' });
  await expect(secrets).toContainText('HELPER_API_KEY');
  await expect(secrets).toContainText('Missing');
  await page.screenshot({ path: testInfo.outputPath('imported-trust-screen.png'), fullPage: true });
  expect(await seriousProblems(lemming)).toEqual([]);

  await secrets.getByLabel('Value for HELPER_API_KEY').fill('helper-key-0123456789');
  await secrets.getByRole('button', { name: 'Set' }).click();
  await expect(secrets).toContainText('Stored on this computer');
  await expect(page.getByRole('navigation', { name: 'Main views' })).toHaveCount(0);
});
