import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { WEATHER_TOOL } from '../../engine/tools/test-support/weather-tool';

const BROKEN_TOOL = `name: broken_tool
description: A tool whose template names a parameter it does not have
parameters:
  city: {type: string, required: true}
request:
  method: GET
  url: "https://weather.example/v1/{{params.town}}"
allowed_hosts: ["weather.example"]
`;
const FIRST_VALUE = 'wk-first-Zr8Pq2Lm5Xc7Vb1N';
const SECOND_VALUE = 'wk-second-Hy4Tg6Jd9Ks3Wa0E';

function orgWithTools(lemming: LemmingHarness): string {
  const org = lemming.copyOfFolder(DEMO_ORG);
  mkdirSync(join(org, 'tools'));
  writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER_TOOL);
  writeFileSync(join(org, 'tools', 'broken.yaml'), BROKEN_TOOL);
  return org;
}

async function openToolStore(lemming: LemmingHarness, org: string): Promise<void> {
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Tool Store');
  await expect(lemming.page.getByRole('heading', { name: 'Tool Store', level: 2 })).toBeVisible();
}

async function expectNoSeriousA11yViolations(lemming: LemmingHarness): Promise<void> {
  const results = await new AxeBuilder({ page: lemming.page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

test('a secret set through a connector drawer is never present in any IPC response', async ({
  lemming,
}, testInfo) => {
  const org = orgWithTools(lemming);
  await openToolStore(lemming, org);
  const { page } = lemming;

  const card = page.getByRole('listitem', { name: 'Fetch Weather' });
  await expect(card).toContainText('Needs setup');
  await expect(card).toContainText('WEATHER_KEY');
  await page.screenshot({ path: testInfo.outputPath('tool-store.png'), fullPage: true });
  await card.getByRole('button', { name: /^Set up/ }).click();
  const drawer = page.getByRole('dialog', { name: /settings$/ });
  await expect(drawer.getByText('not set')).toBeVisible();

  await drawer.getByLabel('WEATHER_KEY', { exact: true }).fill(FIRST_VALUE);
  await drawer.getByRole('button', { name: 'Save WEATHER_KEY' }).click();
  await expect(drawer.getByText('is set')).toBeVisible();
  // Set up, but the org's network is off: not "Ready" (the policy resolver decides, not the secret alone).
  await expect(card).toContainText('Not usable yet');
  await expect(card).toContainText('internet access is off for this org');
  await page.screenshot({ path: testInfo.outputPath('connector-drawer-set.png') });

  await drawer.getByRole('button', { name: 'Replace WEATHER_KEY' }).click();
  await drawer.getByLabel('WEATHER_KEY', { exact: true }).fill(SECOND_VALUE);
  await drawer.getByRole('button', { name: 'Save WEATHER_KEY' }).click();
  await expect(drawer.getByRole('button', { name: 'Replace WEATHER_KEY' })).toBeVisible();

  await drawer.getByRole('button', { name: 'Delete WEATHER_KEY' }).click();
  await page
    .getByRole('dialog', { name: 'Delete WEATHER_KEY?' })
    .getByRole('button', { name: 'Delete WEATHER_KEY' })
    .click();
  await expect(drawer.getByText('not set')).toBeVisible();
  await expect(card).toContainText('Needs setup');

  const setCalls = lemming.calls.filter((call) => call.channel === 'secrets.set');
  expect(setCalls.map((call) => (call.input as { value: string }).value)).toEqual([
    FIRST_VALUE,
    SECOND_VALUE,
  ]);
  expect(lemming.calls.filter((call) => call.channel === 'secrets.delete')).toHaveLength(1);
  const responses = JSON.stringify(lemming.calls.map((call) => call.response));
  expect(responses).not.toContain(FIRST_VALUE);
  expect(responses).not.toContain(SECOND_VALUE);
  expect(await page.content()).not.toContain(SECOND_VALUE);

  await expectNoSeriousA11yViolations(lemming);
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toHaveCount(0);
});

test('the Tool Store shows tool files that did not load, connector settings from their schema, and per-agent toggles', async ({
  lemming,
}, testInfo) => {
  const org = orgWithTools(lemming);
  await openToolStore(lemming, org);
  const { page } = lemming;

  const errors = page.getByRole('alert').filter({ hasText: 'Some tool files could not be loaded' });
  await expect(errors).toContainText('tools/broken.yaml');
  await expect(errors).toContainText('town');
  writeFileSync(join(org, 'tools', 'broken.yaml'), BROKEN_TOOL.replace('params.town', 'params.city'));
  // The mended tool reaches an address the org could not reach before: its person trusts that too.
  await lemming.trustAsIs(org);
  await errors.getByRole('button', { name: 'Check again' }).click();
  await expect(errors).toHaveCount(0);
  await expect(page.getByRole('listitem', { name: 'Broken Tool' })).toBeVisible();

  // Built-in web access: a boolean and a list from its JSON Schema, saved into policy.json.
  const web = page.getByRole('listitem', { name: 'Web requests' });
  await web.getByRole('button', { name: /^Set up/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Web requests settings' });
  await drawer.getByRole('checkbox', { name: 'Allow network access' }).check();
  await drawer.getByRole('textbox', { name: /Private hosts/ }).fill('nas.local\nollama.local');
  await drawer.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Saved the settings of Web requests')).toBeVisible();
  const policy = JSON.parse(readFileSync(join(org, 'lemming', 'config', 'policy.json'), 'utf8')) as {
    network: { enabled: boolean; private_hosts: string[] };
  };
  expect(policy.network).toMatchObject({ enabled: true, private_hosts: ['nas.local', 'ollama.local'] });
  await page.screenshot({ path: testInfo.outputPath('web-settings-drawer.png') });
  await drawer.getByRole('button', { name: 'Close' }).click();

  // Per-agent toggle: writes the agent's permissions.tools.
  await page.getByRole('combobox', { name: 'Show tools for agent' }).selectOption('writer');
  const fileRead = page
    .getByRole('listitem')
    .filter({ hasText: 'file_read' })
    .getByRole('checkbox', { name: 'Enabled for writer' });
  await expect(fileRead).not.toBeChecked();
  await fileRead.check();
  await expect(fileRead).toBeChecked();
  await expect
    .poll(() => {
      const resume = JSON.parse(readFileSync(join(org, 'agents', 'writer', 'resume.json'), 'utf8')) as {
        permissions: { tools: string[] };
      };
      return resume.permissions.tools;
    })
    .toContain('file_read');
  await page.screenshot({ path: testInfo.outputPath('tool-toggles.png'), fullPage: true });

  await expectNoSeriousA11yViolations(lemming);
});
