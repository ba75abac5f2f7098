import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

// Every view at 1280×800, light and dark, against the committed baselines (view-screenshots.spec.ts-snapshots/):
// a style that leaks from one view into another, or a control that loses its look, changes a picture.
// Stable by construction: a fresh copy of the demo org, no run (no clock on screen), animations off, and
// the temporary folder paths masked. After an intended change of a screen: look at the new picture, then
// `npx playwright test --config test/e2e/playwright.config.ts view-screenshots --update-snapshots`.

const VIEWS = ['first run', 'org', 'agent', 'timeline', 'tool store', 'settings'] as const;
type View = (typeof VIEWS)[number];

async function show(lemming: LemmingHarness, view: View): Promise<void> {
  const { page } = lemming;
  await lemming.gotoApp();
  if (view === 'first run') {
    await expect(page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();
    return;
  }
  lemming.setPickedFolder(lemming.copyOfFolder(DEMO_ORG));
  await page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  const tab = (name: RegExp) =>
    page.getByRole('navigation', { name: 'Main views' }).getByRole('button', { name }).click();
  switch (view) {
    case 'org':
      await expect(page.locator('.react-flow__node')).toHaveCount(4);
      await expect(page.getByRole('list', { name: 'Credit balances' })).toBeVisible();
      return;
    case 'agent':
      await page.getByRole('button', { name: 'Open agent writer', exact: true }).click();
      await expect(page.locator('.tool-row').first()).toBeVisible();
      return;
    case 'timeline':
      await tab(/^Timeline/);
      await expect(page.getByText('Nothing has happened yet')).toBeVisible();
      return;
    case 'tool store':
      await tab(/^Tool Store/);
      await expect(page.getByRole('combobox', { name: /Show tools for agent/ })).toBeVisible();
      return;
    case 'settings':
      await tab(/^Settings/);
      await expect(page.getByRole('spinbutton', { name: 'Seconds between ticks' }).last()).toHaveValue('1');
      return;
  }
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} colours`, () => {
    test.use({ viewport: { width: 1280, height: 800 }, colorScheme });
    for (const view of VIEWS) {
      test(`the ${view} view looks as it did`, async ({ lemming }) => {
        await show(lemming, view);
        await expect(lemming.page).toHaveScreenshot(`${view.replace(' ', '-')}-${colorScheme}.png`, {
          animations: 'disabled',
          caret: 'hide',
          mask: [lemming.page.locator('.org-path'), lemming.page.locator('.activity')],
          maxDiffPixelRatio: 0.002,
        });
      });
    }
  });
}
