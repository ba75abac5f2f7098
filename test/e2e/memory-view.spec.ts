import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

// Issue 28, Done-means 5: each agent's memory on its page, searchable, with its history from the
// timeline, and editable by the person, the edit recorded in the timeline as theirs.

test('the agent page shows, searches and edits memory, and the edit is in the timeline as the person’s', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  // Tick 1: the manager writes its plan; tick 2: the researcher notes its sources.
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByText('1 tick done')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Open agent manager', exact: true }).click();

  const memory = page.getByRole('region', { name: 'Memory' });
  const plan = memory.getByRole('listitem', { name: 'plan' });
  await expect(plan.getByLabel('Value of plan')).toContainText('"status": "researching"');
  await expect(plan).toContainText('changed in tick 1');
  await memory.getByText(/^History/).click();
  await expect(memory.getByRole('list', { name: 'Memory history of manager' })).toContainText(
    'plan set to {"goal":"launch note","steps":["research","draft","review"],"status":"researching"} by the agent',
  );

  // A new memory, its name checked by the engine; then search narrows the keys.
  await memory.getByText('Add a memory', { exact: true }).click();
  const add = memory.getByRole('form', { name: 'Add a memory for manager' });
  await add.getByLabel('Name').fill('house style');
  await add.getByLabel('Value').fill('Short sentences. No exclamation marks.');
  await add.getByRole('button', { name: 'Add memory' }).click();
  await expect(add.getByLabel('Name')).toHaveAccessibleDescription(/Memory key 'house style' is invalid/);
  await add.getByLabel('Name').fill('house_style');
  await add.getByRole('button', { name: 'Add memory' }).click();
  await expect(memory.getByRole('listitem', { name: 'house_style' })).toContainText('Short sentences.');
  await memory.getByLabel('Search memory').fill('exclamation');
  await expect(memory.getByRole('listitem', { name: 'house_style' })).toBeVisible();
  await expect(plan).toBeHidden();
  await memory.getByLabel('Search memory').fill('');

  // Editing a structured value: JSON, checked before it is sent.
  await plan.getByRole('button', { name: 'Edit' }).click();
  const value = plan.getByLabel('Value (as JSON, since it holds a structure)');
  await expect(value).toBeFocused();
  await value.fill('{"goal": "launch note", "status": "on hold"');
  await plan.getByRole('button', { name: 'Save plan' }).click();
  await expect(value).toHaveAccessibleDescription(/write it as JSON/);
  await value.fill('{"goal": "launch note", "status": "on hold until Monday"}');
  await plan.getByRole('button', { name: 'Save plan' }).click();
  await expect(plan.getByLabel('Value of plan')).toContainText('"status": "on hold until Monday"');
  const history = memory.getByRole('list', { name: 'Memory history of manager' });
  await expect(history.getByRole('listitem').first()).toContainText(
    'plan set to {"goal":"launch note","status":"on hold until Monday"} by you',
  );

  // LeMMing's file format on disk.
  const file = JSON.parse(readFileSync(join(org, 'agents', 'manager', 'memory', 'plan.json'), 'utf8'));
  expect(Object.keys(file)).toEqual(['key', 'value', 'timestamp_utc', 'agent', 'operation', 'tick']);
  expect(file.value).toEqual({ goal: 'launch note', status: 'on hold until Monday' });

  const dismiss = page.getByRole('button', { name: /^Dismiss: / });
  while ((await dismiss.count()) > 0)
    await dismiss
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  await page.setViewportSize({ width: 1280, height: 2000 });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await memory.scrollIntoViewIfNeeded();
    await memory.screenshot({ path: testInfo.outputPath(`memory-view-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // The timeline has the person's edit.
  await lemming.showView('Timeline');
  await expect(page.getByText('you: memory set plan').first()).toBeVisible();
});
