import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

// Issue 28: the path editor says what the engine will do, in words, for every input.

const writeGrants = (org: string, agent: string): unknown =>
  JSON.parse(readFileSync(join(org, 'agents', agent, 'resume.json'), 'utf8')).permissions.file_access
    ?.allow_write;

async function openResearcher(lemming: LemmingHarness): Promise<string> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.page.getByRole('button', { name: 'Open agent researcher', exact: true }).click();
  await expect(lemming.page.getByRole('heading', { name: /^researcher/ })).toBeVisible();
  await lemming.page.getByRole('button', { name: 'Add writable path' }).click();
  return org;
}

test('variables, ~, addresses and patterns are refused with the reason, not taken as folder names', async ({
  lemming,
}, testInfo) => {
  const org = await openResearcher(lemming);
  const { page } = lemming;
  const entry = page.getByLabel('Writable path 1', { exact: true });
  const note = page.locator('.file-access-editor').nth(1).locator('[data-path-note="0"]');
  const before = writeGrants(org, 'researcher');
  for (const [typed, words] of [
    [
      '$HOME/Documents',
      "'$HOME/Documents' names $HOME, but variables are not expanded; pick a folder inside the org",
    ],
    ['~/x', `'~/x' starts with "~", but variables are not expanded; pick a folder inside the org`],
    [
      '%USERPROFILE%',
      "'%USERPROFILE%' names %USERPROFILE%, but variables are not expanded; pick a folder inside the org",
    ],
    [
      'file:///etc/passwd',
      "'file:///etc/passwd' is an address (a URL), not a folder; pick a folder inside the org",
    ],
    [
      'shared/*',
      `'shared/*' is a pattern ("*"), but patterns are not expanded; name one folder, e.g. shared`,
    ],
  ] as const) {
    await entry.fill(typed);
    await expect(note, typed).toHaveText(`✗ Refused: ${words}`);
    await expect(entry, typed).toHaveAttribute('aria-invalid', 'true');
  }
  await page.screenshot({ path: testInfo.outputPath('path-variable-refused.png') });
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved.' })).toContainText('refused');
  expect(writeGrants(org, 'researcher')).toEqual(before);
});

test('a writable agent folder says the engine refuses every write there but in its workspace', async ({
  lemming,
}, testInfo) => {
  await openResearcher(lemming);
  const { page } = lemming;
  const entry = page.getByLabel('Writable path 1', { exact: true });
  const note = page.locator('.file-access-editor').nth(1).locator('[data-path-note="0"]');
  await entry.fill('agents/researcher');
  await expect(note).toContainText('⚠ Leads to agents/researcher');
  await expect(note).toContainText(
    'Agents can never change anything here except in the workspace (agents/researcher/workspace): the app keeps resumes, outboxes, memory and logs.',
  );
  await expect(note).toContainText(
    'Every other write here is refused, so give the workspace folder instead.',
  );
  await expect(note).not.toContainText('✓');
  await page.screenshot({ path: testInfo.outputPath('path-agent-folder-warned.png') });
});

test('another agent’s private folder asks “Let researcher change manager’s private files?” before it is saved', async ({
  lemming,
}, testInfo) => {
  const org = await openResearcher(lemming);
  const { page } = lemming;
  const entry = page.getByLabel('Writable path 1', { exact: true });
  const note = page.locator('.file-access-editor').nth(1).locator('[data-path-note="0"]');
  const before = writeGrants(org, 'researcher');
  await entry.fill('agents/manager/workspace');
  await expect(note).toContainText(
    '⚠ This lets researcher change manager’s private files; you are asked before it is saved.',
  );
  await page.getByRole('button', { name: 'Save changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Let researcher change manager’s private files?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('researcher can change or delete the files in manager’s workspace.');
  await page.screenshot({ path: testInfo.outputPath('path-other-agent-asked.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(writeGrants(org, 'researcher')).toEqual(before);

  await page.getByRole('button', { name: 'Save changes' }).click();
  await dialog.getByRole('button', { name: 'Allow and save' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Saved to agents/researcher/resume.json' }),
  ).toBeVisible();
  expect(writeGrants(org, 'researcher')).toEqual(['agents/manager/workspace']);
});
