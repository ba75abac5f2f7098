import AxeBuilder from '@axe-core/playwright';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

async function openAgent(lemming: LemmingHarness, org: string, agent: string) {
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  await lemming.page.getByRole('button', { name: `Open agent ${agent}`, exact: true }).click();
  await expect(lemming.page.getByRole('heading', { name: new RegExp(`^${agent}`) })).toBeVisible();
}

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

test('editing tools, schedule and file-access paths changes resume.json and keeps its unknown fields', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const resumePath = join(org, 'agents', 'researcher', 'resume.json');
  const original = readJson(resumePath);
  writeFileSync(
    resumePath,
    JSON.stringify(
      {
        ...original,
        x_team: { color: 'teal', tags: ['facts', 1] },
        model: { ...original.model, x_route: 'eu' },
        permissions: { ...original.permissions, x_reviewed_by: 'ada' },
      },
      null,
      2,
    ),
  );
  await openAgent(lemming, org, 'researcher');
  const page = lemming.page;

  const fileRead = page.locator('[data-tool="file_read"]').getByRole('switch');
  await expect(fileRead).not.toBeChecked();
  await fileRead.click();
  await expect(fileRead).toBeChecked();
  await expect.poll(() => readJson(resumePath).permissions.tools).toContain('file_read');

  await page.getByLabel('Runs every … ticks').fill('3');
  await page.getByLabel('Phase offset').fill('2');
  await expect(page.getByTestId('schedule-preview')).toContainText('runs on ticks 2, 5, 8');

  await page.getByRole('button', { name: 'Add readable path' }).click();
  await page.getByLabel('Readable path 1', { exact: true }).fill('shared');
  await page.getByRole('button', { name: 'Add writable path' }).click();
  await page.getByLabel('Writable path 1', { exact: true }).fill('agents/researcher/workspace/notes');
  await expect(page.locator('.file-access-editor').first()).toContainText('Leads to shared');
  await expect(page.locator('.file-access-editor').nth(1)).toContainText(
    'Leads to agents/researcher/workspace/notes',
  );
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Saved to agents/researcher/resume.json' }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('agent-saved.png'), fullPage: true });

  const saved = readJson(resumePath);
  expect(saved.schedule).toEqual({ run_every_n_ticks: 3, phase_offset: 2 });
  expect(saved.permissions.file_access).toEqual({
    allow_read: ['shared'],
    allow_write: ['agents/researcher/workspace/notes'],
  });
  expect(saved.permissions.tools).toEqual(
    expect.arrayContaining(['memory_read', 'memory_write', 'file_read']),
  );
  expect(saved.x_team).toEqual({ color: 'teal', tags: ['facts', 1] });
  expect(saved.model.x_route).toBe('eu');
  expect(saved.permissions.x_reviewed_by).toBe('ada');
  expect(saved.instructions).toBe(original.instructions);
});

test('an invalid file-access path is refused with a message; a valid one shows its canonical form', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const resumePath = join(org, 'agents', 'writer', 'resume.json');
  const before = readFileSync(resumePath, 'utf8');
  await openAgent(lemming, org, 'writer');
  const page = lemming.page;

  await page.getByRole('button', { name: 'Add readable path' }).click();
  const entry = page.getByLabel('Readable path 1', { exact: true });
  await entry.fill('../../etc');
  const note = page.locator('.file-access-editor').first().locator('[data-path-note="0"]');
  await expect(note).toContainText('Refused:');
  await expect(note).toContainText('leads outside the organization folder');
  await expect(entry).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved.' })).toContainText('refused');
  await page.screenshot({ path: testInfo.outputPath('path-refused.png'), fullPage: true });
  expect(readFileSync(resumePath, 'utf8')).toBe(before);

  await entry.fill('shared/../shared');
  await expect(note).toContainText('Leads to shared');
  await expect(note).toContainText(join(org, 'shared'));
  await expect(entry).toHaveAttribute('aria-invalid', 'false');
  await page.screenshot({ path: testInfo.outputPath('path-canonical.png'), fullPage: true });

  await entry.fill('.');
  await expect(note).toContainText(
    "Agents can never change lemming/, .lemming/, tools/ or agents/ in it (except each agent's workspace).",
  );
  await page.screenshot({ path: testInfo.outputPath('path-read-only.png'), fullPage: true });
});

test('an unavailable tool shows the explainer’s reason next to its toggle, and Apply fix makes it available', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await openAgent(lemming, org, 'researcher');
  const page = lemming.page;
  const row = page.locator('[data-tool="http_request"]');
  await expect(row).toContainText('Not available');
  await expect(row).toContainText('internet access is off for this org');
  await expect(row).toContainText('To fix: switch “Make a web request” on for researcher');
  await page.screenshot({ path: testInfo.outputPath('tool-unavailable.png'), fullPage: true });

  await row.getByRole('button', { name: /^Apply fix for/ }).click();
  const ask = page.getByRole('dialog', { name: /^Change the whole org/ });
  await expect(ask).toContainText('turns network access on for the whole org');
  await ask.getByRole('button', { name: 'Change the whole org' }).click();
  await expect(row).toContainText('Available to the agent');
  await expect(row.getByRole('switch')).toBeChecked();
  await expect(row).not.toContainText('Not available');
  expect(readJson(join(org, 'agents', 'researcher', 'resume.json')).permissions.tools).toContain(
    'http_request',
  );
  expect(readJson(join(org, 'lemming', 'config', 'policy.json')).network.enabled).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('tool-fixed.png'), fullPage: true });

  const results = await new AxeBuilder({ page }).include('.agent-view').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});

test('an invalid resume shows its problems and how to fix them', async ({ lemming }, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const resumePath = join(org, 'agents', 'writer', 'resume.json');
  writeFileSync(
    resumePath,
    JSON.stringify({ ...readJson(resumePath), schedule: { run_every_n_ticks: 0, phase_offset: 0 } }),
  );
  await openAgent(lemming, org, 'writer');
  const problems = lemming.page.getByRole('region', { name: 'This resume is invalid' });
  await expect(problems).toContainText('schedule.run_every_n_ticks');
  await expect(problems).toContainText('run_every_n_ticks must be at least 1');
  await expect(problems).toContainText('To fix it');

  await expect(problems).toContainText('edit the file in a text editor');
  await lemming.page.locator('summary', { hasText: 'Show the resume file' }).click();
  await expect(lemming.page.getByLabel('Text of agents/writer/resume.json')).toContainText(
    '"run_every_n_ticks":0',
  );
  await lemming.page.screenshot({ path: testInfo.outputPath('invalid-resume.png'), fullPage: true });
});
