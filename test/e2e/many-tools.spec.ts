import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, REPO_ROOT, expect, test } from '../harness/lemming-fixture';

// Issue 28: a server's 45 tools are not one flat list: a search box and groups by server and by what
// they say they do, on the server's card, in the Tool Store's grants and on the agent's page.

const MANY_TOOLS_SERVER = join(REPO_ROOT, 'engine/tools/mcp/test-support/many-tools-server.mjs');

test('45 tools of one server are searched and grouped on its card, in the Tool Store and on the agent page', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({ mcpServers: { many: { command: process.execPath, args: [MANY_TOOLS_SERVER] } } }),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await lemming.showView('Tool Store');

  // The server's card: what only reads apart from what changes things, and a search over all 45.
  const card = page.getByRole('listitem', { name: 'many' });
  await expect(card).toContainText('Running', { timeout: 20_000 });
  const tools = card.getByRole('list', { name: 'Tools of many' });
  await expect(
    tools.getByRole('list', { name: 'Reads only (as the server says)' }).locator(':scope > li'),
  ).toHaveCount(15);
  await expect(tools.getByRole('list', { name: 'May change things' }).locator(':scope > li')).toHaveCount(30);
  await card.getByLabel('Search the tools of many').fill('ticket 2');
  await expect(card.getByRole('status').filter({ hasText: 'tools' })).toHaveText('3 of 45 tools');
  await expect(tools).toContainText('Look up ticket 2');
  await expect(tools).toContainText('Send ticket 2');
  await expect(tools).not.toContainText('Send ticket 1');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('many-tools-card.png') });

  // The grants: the app's own tools apart from the server's, searched by any word.
  await page.getByLabel('Show tools for agent').selectOption('writer');
  const grants = page.getByRole('list', { name: 'Tools', exact: true });
  await expect(grants.getByRole('heading', { name: 'The app’s own tools' })).toBeVisible();
  await expect(grants.getByRole('list', { name: 'From many' }).locator(':scope > li')).toHaveCount(45);
  await page.getByLabel('Search the tools', { exact: true }).fill('send order');
  await expect(grants.getByRole('list', { name: 'From many' }).locator(':scope > li')).toHaveCount(3);
  await expect(grants.getByRole('heading', { name: 'The app’s own tools' })).toHaveCount(0);
  await grants.screenshot({ path: testInfo.outputPath('many-tools-grants.png') });

  // The agent's page: found, then given, by its words.
  await lemming.showView('Org');
  await page.getByRole('button', { name: 'Open agent writer', exact: true }).click();
  const toggles = page.getByRole('region', { name: 'Tools', exact: true });
  await expect(toggles.getByRole('heading', { name: 'From many' })).toBeVisible();
  await toggles.getByLabel('Search writer’s tools').fill('file invoice 3');
  const rows = toggles.locator('.tool-row');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('File invoice 3');
  await rows.getByRole('switch').click();
  await expect(rows.getByRole('switch')).toBeChecked();
  await expect
    .poll(() => JSON.parse(readFileSync(join(org, 'agents/writer/resume.json'), 'utf8')).permissions.tools)
    .toContain('mcp__many__file_invoice_3');
  await page.screenshot({ path: testInfo.outputPath('many-tools-agent.png') });
});
