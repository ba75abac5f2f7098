import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, type LemmingHarness } from '../harness/lemming-fixture';

type Scheme = 'light' | 'dark';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
    }));
}

async function scan(page: Page, name: string, scheme: Scheme, outputPath: (name: string) => string) {
  await page.screenshot({ path: outputPath(`${name}-${scheme}.png`), fullPage: true });
  expect(await seriousViolations(page), `${name} (${scheme})`).toEqual([]);
}

async function openDemoAndRun(lemming: LemmingHarness) {
  const { page } = lemming;
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByTestId('ticks-done')).toHaveText('1 tick done');
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every view passes an axe scan in ${scheme} mode`, async ({ lemming }, testInfo) => {
    const { page } = lemming;
    const outputPath = (name: string) => testInfo.outputPath(name);
    await page.emulateMedia({ colorScheme: scheme });
    await lemming.gotoApp();
    await expect(page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();
    await scan(page, 'first-run', scheme, outputPath);

    await openDemoAndRun(lemming);
    await expect(page.locator('svg.credit-chart').first()).toBeVisible();
    await scan(page, 'org', scheme, outputPath);

    await page.keyboard.press('Control+2');
    await expect(page.getByRole('list', { name: 'Events' }).getByRole('listitem').first()).toBeVisible();
    await scan(page, 'timeline', scheme, outputPath);

    await page.keyboard.press('Control+3');
    await expect(page.getByRole('button', { name: /^Tool Store/ })).toHaveAttribute('aria-current', 'page');
    await scan(page, 'tool-store', scheme, outputPath);

    await page.keyboard.press('Control+4');
    await expect(page.getByRole('list', { name: 'Models' })).toBeVisible();
    await scan(page, 'settings', scheme, outputPath);

    await page.keyboard.press('Control+1');
    await page.getByRole('button', { name: 'Open writer' }).click();
    await expect(page.getByRole('button', { name: 'Agent: writer' })).toHaveAttribute('aria-current', 'page');
    await scan(page, 'agent', scheme, outputPath);

    await page.keyboard.press('Control+1');
    await page.getByRole('button', { name: 'Top up…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await scan(page, 'top-up-dialog', scheme, outputPath);
  });
}

test('the main views are reachable with the keyboard alone', async ({ lemming }, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  await expect(page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();

  // The skip link is the first stop and lands on the content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  await tabTo(page, 'Open the demo org');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();

  await tabTo(page, 'Step one tick');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('ticks-done')).toHaveText('1 tick done');

  for (const [label, check] of [
    ['Timeline', () => expect(page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible()],
    ['Settings', () => expect(page.getByRole('list', { name: 'Models' })).toBeVisible()],
    [
      'Tool Store',
      () => expect(page.getByRole('button', { name: /^Tool Store/ })).toHaveAttribute('aria-current', 'page'),
    ],
    ['Org', () => expect(page.getByRole('heading', { name: 'Credits' })).toBeVisible()],
  ] as const) {
    await tabTo(page, new RegExp(`^${label}`));
    await page.keyboard.press('Enter');
    await check();
    await expect(page.locator('#main')).toBeFocused();
  }

  await tabTo(page, 'Open writer');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Agent: writer' })).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: testInfo.outputPath('keyboard-agent.png'), fullPage: true });
});

/** Presses Tab until the focused element is the named button or link (at most 200 presses), as a keyboard user would. */
async function tabTo(page: Page, name: string | RegExp) {
  for (let presses = 0; presses < 200; presses++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return element ? (element.getAttribute('aria-label') ?? element.innerText ?? '').trim() : '';
    });
    if (typeof name === 'string' ? focused === name : name.test(focused)) return;
  }
  throw new Error(`Tab never reached ${String(name)}`);
}
