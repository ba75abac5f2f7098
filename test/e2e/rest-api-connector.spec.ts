import AxeBuilder from '@axe-core/playwright';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';
import { filesUnder } from '../test-support/files-under';

const API_KEY = 'inv-key-Qm7Rt2Xw9Lp4Zc8V';

test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
const STILL = { animations: 'disabled', caret: 'hide' } as const;

/**
 * Hides what changes from run to run (toasts come and go with timing; the org folder is a temp path),
 * through the style object: the app's content security policy refuses style sheets it did not ship.
 */
async function steadyChrome(page: Page): Promise<void> {
  await page.locator('.toasts').evaluate((element: HTMLElement) => (element.style.display = 'none'));
  // "Saved", after a write, fades on a timer of its own.
  await expect(page.locator('.activity')).toHaveAttribute('data-activity', 'idle', { timeout: 6000 });
  await page.locator('.org-path').evaluate((element: HTMLElement) => (element.style.visibility = 'hidden'));
}

/** An inventory service on loopback that answers only when the key comes in its X-API-Key header. */
async function inventoryServer(): Promise<{
  server: Server;
  port: number;
  seen: { url: string; headers: IncomingHttpHeaders }[];
}> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    if (request.headers['x-api-key'] !== API_KEY) {
      response.writeHead(401, { 'content-type': 'application/json' });
      return void response.end('{"error":"no key"}');
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ sku: 'A-42', in_stock: 17 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

/** The demo org plus `clerk`, whose scripted model calls the `inventory` tool once and then writes notes. */
function clerkOrg(lemming: LemmingHarness): string {
  const org = lemming.copyOfFolder(DEMO_ORG);
  addScriptedAgents(org, 'clerk', {
    clerk: {
      title: 'Stock clerk',
      description: 'Counts the stock',
      instructions: 'You count the stock.',
      steps: [
        {
          when: { round: 1 },
          respond: { tool_calls: [{ tool: 'inventory', args: { path: '/items/A-42' } }] },
        },
        { respond: { notes: 'counted the stock' } },
      ],
    },
  });
  return org;
}

/** The window at 1280×800 with the drawer scrolled to its top; the temp folder's path, the port and toasts hidden. */
async function drawerScreenshot(lemming: LemmingHarness, drawer: Locator, name: string): Promise<void> {
  await drawer.evaluate((element) => element.scrollTo(0, 0));
  await steadyChrome(lemming.page);
  await expect(lemming.page).toHaveScreenshot(name, {
    ...STILL,
    mask: [drawer.getByRole('textbox', { name: 'Address of the API' }), drawer.locator('details code')],
  });
}

test('a REST API connector set up in the Tool Store is granted to an agent, called with its key, and the call shows in the timeline', async ({
  lemming,
}, testInfo) => {
  const inventory = await inventoryServer();
  try {
    const org = clerkOrg(lemming);
    await lemming.openOrgAt(org);
    await lemming.showView('Tool Store');
    const { page } = lemming;

    // Agents reach the network only when the org allows it; this API is on this computer, so its host is named.
    await page
      .getByRole('listitem', { name: 'Web requests' })
      .getByRole('button', { name: /^Set up/ })
      .click();
    const web = page.getByRole('dialog', { name: 'Web requests settings' });
    await web.getByRole('checkbox', { name: 'Allow network access' }).check();
    await web.getByRole('textbox', { name: /Private hosts/ }).fill(`127.0.0.1:${inventory.port}`);
    await web.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Saved the settings of Web requests')).toBeVisible();
    await web.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Add a REST API…' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add a REST API' });
    await drawer.getByLabel('Name agents call it by', { exact: true }).fill('inventory');
    await drawer.getByLabel('Address of the API', { exact: true }).fill(`127.0.0.1:${inventory.port}/v1`);
    await drawer.getByRole('radio', { name: /In a header of its own/ }).check();
    await drawer.getByLabel('Header name', { exact: true }).fill('X-API-Key');
    await drawer.getByLabel('API key', { exact: true }).fill(API_KEY);
    await drawer.getByLabel('What it is for (optional)', { exact: true }).fill('our stock of parts');
    await page.screenshot({ path: testInfo.outputPath('rest-api-drawer.png') });
    await drawerScreenshot(lemming, drawer, 'rest-api-drawer-new.png');

    // A bad address is refused at its field, and nothing is written.
    await drawer.getByRole('button', { name: 'Add this API' }).click();
    await expect(drawer.getByRole('alert', { name: 'Problems with Address of the API' })).toContainText(
      'is not a web address',
    );
    expect(() => statSync(join(org, 'lemming/config/rest-apis.json'))).toThrow();

    await drawer
      .getByLabel('Address of the API', { exact: true })
      .fill(`http://127.0.0.1:${inventory.port}/v1`);
    await drawer.getByRole('button', { name: 'Add this API' }).click();
    await expect(drawer).toHaveCount(0);
    const card = page.getByRole('listitem', { name: 'Inventory API' });
    await expect(card).toContainText('Ready');
    await expect(card).toContainText('our stock of parts');
    expect(JSON.parse(readFileSync(join(org, 'lemming/config/rest-apis.json'), 'utf8'))).toEqual({
      apis: {
        inventory: {
          base_url: `http://127.0.0.1:${inventory.port}/v1`,
          description: 'our stock of parts',
          auth: { style: 'header', name: 'X-API-Key' },
          key_secret: 'INVENTORY_API_KEY',
          methods: ['GET'],
        },
      },
    });

    // The drawer opens again with what was saved, the key only as "saved".
    await card.getByRole('button', { name: /^Set up/ }).click();
    const again = page.getByRole('dialog', { name: 'inventory API settings' });
    await expect(again.getByLabel('Header name', { exact: true })).toHaveValue('X-API-Key');
    await expect(again.getByLabel('API key', { exact: true })).toHaveValue('');
    await expect(again).toContainText('A key is saved.');
    await again.getByText('Advanced').click();
    await expect(again).toContainText(`calls may reach only 127.0.0.1:${inventory.port}`);
    await drawerScreenshot(lemming, again, 'rest-api-drawer-saved.png');
    const scan = await new AxeBuilder({ page }).include('.rest-api-drawer').analyze();
    expect(
      scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
    await again.getByRole('button', { name: 'Close' }).click();

    // Granted to clerk in the Tool Store's per-agent list.
    await page.getByRole('combobox', { name: 'Show tools for agent' }).selectOption('clerk');
    const toggle = page
      .getByRole('listitem')
      .filter({ hasText: 'Inventory API' })
      .getByRole('checkbox', { name: 'Enabled for clerk' });
    await toggle.check();
    await expect(toggle).toBeChecked();

    await page.getByRole('button', { name: 'Step one tick' }).click();
    await lemming.showView('Timeline');
    await page.getByRole('combobox', { name: 'Agent' }).selectOption('clerk');
    await expect(
      page.getByText('inventory → {"status":200,"body":{"sku":"A-42","in_stock":17}}'),
    ).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: testInfo.outputPath('timeline-call.png') });

    expect(inventory.seen.map((request) => request.url)).toEqual(['/v1/items/A-42']);
    expect(inventory.seen[0]?.headers['x-api-key']).toBe(API_KEY);

    // The key went in once (the drawer's save) and never came back: no answer, no org file, not the page.
    const answers = JSON.stringify(lemming.calls.map((call) => call.response));
    expect(answers).not.toContain(API_KEY);
    for (const file of filesUnder(org)) expect(readFileSync(file).includes(API_KEY), file).toBe(false);
    expect(await page.content()).not.toContain(API_KEY);
  } finally {
    inventory.server.close();
  }
});
