import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { WEATHER_TOOL } from '../../engine/tools/test-support/weather-tool';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

// Issue 28, where the eye is: every dialog and drawer focuses its first field (or, for a question, its
// Cancel), keeps Tab inside itself, closes on Escape and gives focus back to the control that opened it.

async function openDemoWithTools(lemming: LemmingHarness): Promise<void> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  mkdirSync(join(org, 'tools'));
  writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER_TOOL);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
}

/** Opens the dialog with `opener`, checks where focus is, Tabs around in it, closes it with Escape. */
async function expectDialogKeepsTheEye(
  page: Page,
  opener: Locator,
  name: string | RegExp,
  firstFocus: (dialog: Locator) => Locator,
): Promise<void> {
  await opener.click();
  const dialog = page.getByRole('dialog', { name, exact: true });
  await expect(dialog).toBeVisible();
  await expect(firstFocus(dialog)).toBeFocused();
  for (let press = 0; press < 4; press += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement)), String(name)).toBe(
      true,
    );
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test('every dialog and drawer takes focus to its first field, closes on Escape and gives focus back', async ({
  lemming,
}, testInfo) => {
  await openDemoWithTools(lemming);
  const { page } = lemming;
  await page.getByRole('button', { name: 'New agent…' }).click();
  await page.screenshot({ path: testInfo.outputPath('new-agent-dialog.png') });
  await page.keyboard.press('Escape');

  await expectDialogKeepsTheEye(
    page,
    page.getByRole('button', { name: 'New agent…' }),
    'New agent',
    (dialog) => dialog.getByLabel('Name'),
  );

  await lemming.showView('Tool Store');
  await expectDialogKeepsTheEye(
    page,
    page.getByRole('button', { name: 'Add a server…' }),
    'Add a server',
    (dialog) => dialog.locator('input').first(),
  );
  await expectDialogKeepsTheEye(
    page,
    page.getByRole('button', { name: 'Add a REST API…' }),
    'Add a REST API',
    (dialog) => dialog.getByLabel('Name agents call it by'),
  );
  const weather = page.getByRole('listitem', { name: 'Fetch Weather' });
  await expectDialogKeepsTheEye(
    page,
    weather.getByRole('button', { name: /^Set up/ }),
    /settings$/,
    (dialog) => dialog.locator('input').first(),
  );

  await lemming.showView('Settings');
  const model = page.getByRole('list', { name: 'Models' }).getByRole('listitem', { name: 'demo-scripted' });
  await expectDialogKeepsTheEye(
    page,
    model.getByRole('button', { name: 'Remove…' }),
    'Remove demo-scripted?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );
});

test('Escape in a question asked over a drawer closes only the question', async ({ lemming }) => {
  await openDemoWithTools(lemming);
  const { page } = lemming;
  await lemming.showView('Tool Store');
  await page
    .getByRole('listitem', { name: 'Fetch Weather' })
    .getByRole('button', { name: /^Set up/ })
    .click();
  const drawer = page.getByRole('dialog', { name: /settings$/ });
  await drawer.getByLabel('WEATHER_KEY', { exact: true }).fill('wk-value-Zr8Pq2Lm5Xc7Vb1N');
  await drawer.getByRole('button', { name: 'Save WEATHER_KEY' }).click();
  const remove = drawer.getByRole('button', { name: 'Delete WEATHER_KEY' });
  await remove.click();
  const question = page.getByRole('dialog', { name: 'Delete WEATHER_KEY?' });
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(drawer).toBeVisible();
  await expect(remove).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await lemming.showView('Settings');
  await expectDialogKeepsTheEye(
    page,
    page
      .getByRole('list', { name: 'Secrets' })
      .getByRole('listitem', { name: 'WEATHER_KEY' })
      .getByRole('button', { name: 'Delete…' }),
    'Delete WEATHER_KEY?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );
});

test('a memory question on the agent page gives focus back to its row', async ({ lemming }) => {
  await openDemoWithTools(lemming);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Open agent writer', exact: true }).click();
  const memory = page.getByRole('region', { name: 'Memory' });
  await memory.getByText('Add a memory', { exact: true }).click();
  const add = memory.getByRole('form', { name: 'Add a memory for writer' });
  await add.getByLabel('Name').fill('draft_state');
  await add.getByLabel('Value').fill('outline done');
  await add.getByRole('button', { name: 'Add memory' }).click();
  await expectDialogKeepsTheEye(
    page,
    memory.getByRole('listitem', { name: 'draft_state' }).getByRole('button', { name: 'Remove…' }),
    'Remove draft_state?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );
});

test('the questions asked before a change keep the eye too: closing during a run, a top-up, trust, another agent’s files', async ({
  lemming,
}) => {
  await openDemoWithTools(lemming);
  const { page } = lemming;

  const topUp = page.getByRole('form', { name: 'Top up credits' });
  await topUp.getByRole('combobox', { name: 'Agent' }).selectOption('writer');
  await topUp.getByRole('spinbutton', { name: 'Credits to add' }).fill('25');
  await expectDialogKeepsTheEye(
    page,
    topUp.getByRole('button', { name: 'Top up…' }),
    'Add 25 credits to writer?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );

  await page.getByRole('button', { name: 'Open agent researcher', exact: true }).click();
  await page.getByRole('button', { name: 'Add writable path' }).click();
  await page.getByLabel('Writable path 1', { exact: true }).fill('agents/manager/workspace');
  await expect(page.locator('.file-access-editor').nth(1)).toContainText('you are asked before it is saved');
  await expectDialogKeepsTheEye(
    page,
    page.getByRole('button', { name: 'Save changes' }),
    'Let researcher change manager’s private files?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );

  await lemming.showView('Settings');
  await expectDialogKeepsTheEye(
    page,
    page.getByRole('button', { name: 'Stop trusting this org…' }),
    'Stop trusting this org?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );

  const runBar = page.getByRole('region', { name: 'Run controls' });
  await runBar.getByRole('button', { name: 'Start' }).click();
  await expect(runBar.getByRole('button', { name: 'Stop' })).toBeVisible();
  await expectDialogKeepsTheEye(
    page,
    page.getByRole('button', { name: 'Close org' }),
    'Stop the run and close the org?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );
  await runBar.getByRole('button', { name: 'Stop' }).click();
});

test('removing a REST API asks over its drawer: Cancel focused, Escape closes only the question', async ({
  lemming,
}) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming', 'config', 'rest-apis.json'),
    JSON.stringify({
      apis: {
        inventory: {
          base_url: 'http://127.0.0.1:9/v1',
          description: 'our stock of parts',
          auth: { style: 'none' },
          methods: ['GET'],
        },
      },
    }),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await lemming.showView('Tool Store');
  await page
    .getByRole('listitem', { name: 'Inventory API' })
    .getByRole('button', { name: /^Set up/ })
    .click();
  const drawer = page.getByRole('dialog', { name: 'inventory API settings' });
  await expectDialogKeepsTheEye(
    page,
    drawer.getByRole('button', { name: 'Remove this API' }),
    'Remove inventory?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );
  await expect(drawer).toBeVisible();
});

test('adding a server under a name the org has asks before replacing it, and keeps the eye', async ({
  lemming,
}) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming', 'config', 'mcp.json'),
    JSON.stringify({ mcpServers: { existing: { command: process.execPath, args: ['-e', ''] } } }),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await lemming.showView('Tool Store');
  await page.getByRole('button', { name: 'Add a server…' }).click();
  const form = page.getByRole('dialog', { name: 'Add a server' });
  await form.getByLabel('Name', { exact: true }).fill('existing');
  await form.getByLabel('Program to start', { exact: true }).fill(process.execPath);
  await expectDialogKeepsTheEye(
    page,
    form.getByRole('button', { name: 'Add this server' }),
    'Replace what you have?',
    (dialog) => dialog.getByRole('button', { name: 'Cancel' }),
  );
  await expect(form).toBeVisible();
});
