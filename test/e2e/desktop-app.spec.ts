import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSignInServer } from '../../engine/tools/mcp/test-support/sign-in-server';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

test('the start screen lists recent orgs: pinned first, a missing folder as such, one click to open', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const acme = lemming.copyOfFolder(DEMO_ORG);
  const gone = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(acme);
  await lemming.trustAsIs(gone);
  for (const org of [gone, acme]) {
    await lemming.openOrgAt(org);
    await expect(page.locator('[data-app-state="open"]')).toBeVisible();
    await page.getByRole('button', { name: 'Close org' }).click();
    await expect(page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();
  }
  rmSync(gone, { recursive: true });
  await page.reload();

  const recent = page.getByRole('region', { name: 'Open a recent org' });
  await expect(recent.getByRole('listitem')).toHaveCount(2);
  await expect(recent.getByRole('listitem').nth(1)).toContainText(`Folder not found: ${gone}`);
  await expect(recent.getByRole('listitem').nth(1).getByRole('button').first()).toBeDisabled();

  await recent.getByRole('listitem').nth(0).getByRole('button', { name: /^Pin/ }).click();
  await expect(
    recent
      .getByRole('listitem')
      .nth(0)
      .getByRole('button', { name: /^Unpin/ }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('recent-orgs.png') });

  await recent.getByRole('button', { name: 'Remove from list' }).click();
  await expect(recent.getByRole('listitem')).toHaveCount(1);

  await recent.getByRole('listitem').nth(0).getByRole('button').first().click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  expect(lemming.currentOrgPath()).toBe(acme);
});

test('Settings turns each kind of notification on or off, and it is remembered', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Settings');
  const section = page.getByRole('region', { name: 'Alerts and running in the background' });
  const failing = section.getByRole('switch', { name: 'An agent starts failing' });
  await expect(failing).toBeChecked();
  await failing.click();
  await expect(failing).not.toBeChecked();
  await section.getByText('About LeMMing Desktop').click();
  await expect(section.getByText('0.0.0-test')).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('desktop-settings.png'), fullPage: true });

  await lemming.openOrgAt(org);
  await lemming.showView('Settings');
  await expect(
    page
      .getByRole('region', { name: 'Alerts and running in the background' })
      .getByRole('switch', { name: 'An agent starts failing' }),
  ).not.toBeChecked();
  await expect(
    page
      .getByRole('region', { name: 'Alerts and running in the background' })
      .getByRole('switch', { name: 'An agent waits for your yes or no' }),
  ).toBeChecked();
});

test('a menu item or a clicked notification takes the window to its place', async ({ lemming }) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();

  lemming.pushFromMain('app.navigate', { view: 'settings' });
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();

  lemming.pushFromMain('app.navigate', { view: 'agent', agent: 'writer' });
  await expect(page.getByRole('heading', { name: /writer/, level: 2 })).toBeVisible();
});

test('a notification that an MCP server needs a sign-in opens the Tool Store at its card', async ({
  lemming,
}, testInfo) => {
  const server = await startSignInServer();
  try {
    const { page } = lemming;
    const org = lemming.copyOfFolder(DEMO_ORG);
    writeFileSync(
      join(org, 'lemming/config/mcp.json'),
      JSON.stringify({ mcpServers: { remote: { url: server.url } } }),
    );
    const policyFile = join(org, 'lemming/config/policy.json');
    const policy = existsSync(policyFile) ? JSON.parse(readFileSync(policyFile, 'utf8')) : {};
    writeFileSync(
      policyFile,
      JSON.stringify({
        ...policy,
        network: { ...policy.network, enabled: true, private_hosts: ['127.0.0.1'] },
      }),
    );
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    await expect(page.locator('[data-app-state="open"]')).toBeVisible();
    await page.setViewportSize({ width: 1100, height: 500 });

    lemming.pushFromMain('app.navigate', { view: 'tools', server: 'remote' });

    const card = page.getByRole('listitem', { name: 'remote' });
    await expect(card).toBeFocused();
    await expect(card).toBeInViewport();
    await expect(card).toContainText('Waiting for you to sign in');
    await page.screenshot({ path: testInfo.outputPath('tool-store-at-sign-in-card.png') });
  } finally {
    await server.close();
  }
});
