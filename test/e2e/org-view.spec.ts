import AxeBuilder from '@axe-core/playwright';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

const DEMO_AGENTS = ['human', 'manager', 'researcher', 'writer'];

async function openDemoCopy(lemming: LemmingHarness): Promise<string> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
  return org;
}

async function expectNoSeriousViolations(lemming: LemmingHarness, selector: string) {
  const results = await new AxeBuilder({ page: lemming.page }).include(selector).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('the graph shows the demo org’s agents and its read and send permissions, and remembers where they are', async ({
  lemming,
}, testInfo) => {
  await openDemoCopy(lemming);
  const graph = lemming.page.getByTestId('org-graph');
  for (const name of DEMO_AGENTS)
    await expect(graph.getByRole('button', { name: `Open agent ${name}`, exact: true })).toBeVisible();
  // The human reads every outbox: a badge on its card, not three arrows.
  await expect(graph.locator('.react-flow__edge.edge-read')).toHaveCount(6);
  await expect(graph.locator('[data-agent-node="human"]')).toContainText('Reads every outbox');
  await expect(graph.locator('.react-flow__edge.edge-send')).toHaveCount(1);
  await expect(graph.locator('[data-agent-node="manager"]')).toContainText('Project Manager');
  await expect(graph.locator('[data-agent-node="manager"]')).toContainText('Ready');
  await expect(lemming.page.getByRole('list', { name: 'Legend' })).toContainText('Dashed orange arrow');

  // The first layout is saved, so the next org.graph carries a position for every agent.
  await expect
    .poll(async () => {
      const answer = await lemming.page.evaluate(() => window.lemming.org.graph());
      return answer.ok ? answer.value.nodes.filter((node) => node.position !== null).length : -1;
    })
    .toBe(DEMO_AGENTS.length);
  await lemming.page.screenshot({ path: testInfo.outputPath('org-graph.png'), fullPage: true });
  await expectNoSeriousViolations(lemming, '.org-view');
});

test('the table lists the same permissions as the graph', async ({ lemming }, testInfo) => {
  await openDemoCopy(lemming);
  await lemming.page.getByRole('button', { name: 'Table', exact: true }).click();
  const table = lemming.page.getByRole('table', { name: 'Agents and their permissions' });
  await expect(table.locator('tbody tr')).toHaveCount(DEMO_AGENTS.length);
  const row = (name: string) => table.locator(`tr[data-agent-row="${name}"]`);
  await expect(row('writer').locator('td').nth(1)).toHaveText('manager, researcher');
  await expect(row('researcher').locator('td').nth(2)).toHaveText('manager');
  await expect(row('human').locator('td').nth(1)).toContainText('Every outbox (*)');
  await expect(row('manager').locator('td').nth(1)).toHaveText('human, researcher, writer');
  await expect(row('manager').locator('td').nth(3)).toHaveText('human, researcher, writer');
  await lemming.page.screenshot({ path: testInfo.outputPath('org-table.png'), fullPage: true });
  await expectNoSeriousViolations(lemming, '.org-view');

  await row('researcher').getByRole('button', { name: 'researcher', exact: true }).click();
  await expect(lemming.page.getByRole('heading', { name: /^researcher/ })).toBeVisible();
});

test('creating an agent adds it to the graph and the disk; removing it can be undone', async ({
  lemming,
}, testInfo) => {
  const org = await openDemoCopy(lemming);
  const page = lemming.page;
  await page.getByRole('button', { name: 'New agent…' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByLabel('Name').fill('bad name!');
  await form.getByLabel('Title').fill('Editor');
  await form.getByRole('button', { name: 'Create agent' }).click();
  await expect(form.getByRole('alert')).toContainText('only letters, digits');

  await form.getByLabel('Name').fill('editor');
  await form.getByLabel('Runs every … ticks').fill('2');
  await form.getByRole('button', { name: 'Create agent' }).click();
  const graph = page.getByTestId('org-graph');
  await expect(graph.getByRole('button', { name: 'Open agent editor', exact: true })).toBeVisible();
  const resume = JSON.parse(readFileSync(join(org, 'agents', 'editor', 'resume.json'), 'utf8'));
  expect(resume).toMatchObject({ name: 'editor', title: 'Editor', schedule: { run_every_n_ticks: 2 } });

  await graph.getByRole('button', { name: 'Remove agent editor' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Removed editor' })).toBeVisible();
  await expect(graph.getByRole('button', { name: 'Open agent editor', exact: true })).toHaveCount(0);
  expect(existsSync(join(org, 'agents', 'editor'))).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('org-removed-with-undo.png'), fullPage: true });

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(graph.getByRole('button', { name: 'Open agent editor', exact: true })).toBeVisible();
  expect(existsSync(join(org, 'agents', 'editor', 'resume.json'))).toBe(true);
});

test('clicking an agent’s name in the graph opens its page', async ({ lemming }) => {
  await openDemoCopy(lemming);
  await lemming.page.getByTestId('org-graph').getByRole('button', { name: 'Open agent writer' }).click();
  await expect(lemming.page.getByRole('heading', { name: /^writer/ })).toBeVisible();
  await expect(lemming.page.getByRole('form', { name: 'Resume of writer' })).toBeVisible();
});
