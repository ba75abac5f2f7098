import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/lemming-fixture';
import { expect, test } from '../harness/lemming-fixture';

const TITLES = [
  'Research desk',
  'Content pipeline',
  'Inbox triage',
  'Code review department',
  'Personal operations',
];

const folders: string[] = [];
test.afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** An empty folder the person "chose" in the dialog. */
function emptyFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'lemming-e2e-template-'));
  folders.push(folder);
  return folder;
}

test('the first run offers five templates with their graphs, and one made from the gallery runs offline', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  const gallery = page.getByRole('list', { name: 'Templates' });
  const cards = gallery.getByRole('listitem').filter({ has: page.getByRole('heading') });
  await expect(cards).toHaveCount(TITLES.length + 1);
  for (const title of TITLES) {
    const card = gallery.getByRole('listitem', { name: title });
    await expect(card.locator('svg.template-picture')).toBeVisible();
    await expect(
      card.getByRole('list', { name: `The agents of ${title}` }).getByRole('listitem'),
    ).toHaveCount(3);
  }
  const content = gallery.getByRole('listitem', { name: 'Content pipeline' });
  await expect(content.getByRole('img')).toHaveAccessibleName(/Writer to Fact-checker/);
  await expect(content.locator('.template-picture-node')).toHaveCount(4);
  await expect(gallery.getByRole('listitem', { name: 'Research desk' })).toContainText(
    'You are asked to trust it before it runs: it reaches out through the agent “scout”, which may send web requests to any address its model chooses.',
  );
  await gallery.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('template-gallery.png'), fullPage: true });
  await gallery
    .getByRole('listitem', { name: 'Research desk' })
    .screenshot({ path: testInfo.outputPath('research-desk-card.png') });

  const folder = emptyFolder();
  lemming.setPickedFolder(folder);
  await content.getByRole('button', { name: 'Create Content pipeline…' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  expect(lemming.currentOrgPath()).toBe(folder);
  expect(readFileSync(join(folder, 'agents', 'writer', 'resume.json'), 'utf8')).toBe(
    readFileSync(
      join(REPO_ROOT, 'templates', 'content-pipeline', 'org', 'agents', 'writer', 'resume.json'),
      'utf8',
    ),
  );
  // It reaches nothing, so there is nothing to trust: it opens on its graph, ready to run.
  const nodes = page.locator('.react-flow__node');
  await expect(nodes).toHaveCount(4);
  await expect(nodes.filter({ hasText: 'fact_checker' })).toBeVisible();

  const controls = page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('spinbutton', { name: 'Ticks to run', exact: true }).fill('3');
  await controls.getByRole('spinbutton', { name: 'Seconds between ticks' }).fill('0');
  await controls.getByRole('button', { name: 'Start' }).click();
  await expect(controls.getByTestId('ticks-done')).toHaveText('3 of 3 ticks done', { timeout: 30_000 });
  await expect(controls).toHaveAttribute('data-run-phase', 'idle');
  expect(readdirSync(join(folder, 'agents', 'editor', 'workspace', 'ready'))).toEqual([
    'off-site-backups.md',
  ]);
  await page.screenshot({ path: testInfo.outputPath('content-pipeline-graph.png'), fullPage: true });
});

test('an org made from the research desk waits behind the trust screen, which names the agent that reads the web', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  lemming.setPickedFolder(emptyFolder());
  await page.getByRole('button', { name: 'Create Research desk…' }).click();
  const screen = page.locator('section.trust-screen');
  await expect(screen.getByRole('heading', { name: 'Do you trust this org?' })).toBeVisible();
  await expect(screen).toContainText('scout');
  await expect(page.getByRole('region', { name: 'Run controls' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('research-desk-trust.png'), fullPage: true });
});

test('File → New Org… offers the gallery over an open org: a folder that holds files is refused without closing it, and the last card makes an empty org', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  lemming.setPickedFolder(emptyFolder());
  await page.getByRole('button', { name: 'Create Personal operations…' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  const opened = lemming.currentOrgPath();

  lemming.pushFromMain('app.newOrg', {});
  const dialog = page.getByRole('dialog', { name: 'New org' });
  await expect(dialog.getByRole('list', { name: 'Templates' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('new-org-dialog.png') });

  const full = emptyFolder();
  writeFileSync(join(full, 'notes.txt'), 'mine');
  lemming.setPickedFolder(full);
  await dialog.getByRole('button', { name: 'Create Inbox triage…' }).click();
  await expect(dialog.getByRole('alert')).toContainText('is not empty; nothing was written');
  expect(readdirSync(full)).toEqual(['notes.txt']);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(lemming.currentOrgPath()).toBe(opened);

  await page.getByRole('button', { name: 'New org…' }).click();
  const target = emptyFolder();
  lemming.setPickedFolder(target);
  await dialog.getByRole('button', { name: 'Create Code review department…' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => lemming.currentOrgPath()).toBe(target);
  await expect(page.locator('.react-flow__node').filter({ hasText: 'security' })).toBeVisible();

  await page.getByRole('button', { name: 'New org…' }).click();
  const empty = emptyFolder();
  lemming.setPickedFolder(empty);
  await dialog.getByRole('button', { name: 'Create an empty org…' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => lemming.currentOrgPath()).toBe(empty);
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
  expect(readdirSync(join(empty, 'agents'))).toEqual(['human']);
});
