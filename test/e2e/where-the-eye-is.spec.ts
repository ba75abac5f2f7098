import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

// Issue 28, where the eye is: what asks for the person comes into view, focus never drops to the page,
// and each view starts at its top.

/** The demo org with `keeper` and `tidier`, each asking to run one shell command in tick 1. */
async function twoAsking(lemming: LemmingHarness): Promise<void> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const asking = (name: string, command: string) => ({
    title: `${name} agent`,
    description: name,
    instructions: `You are ${name}.`,
    tools: ['shell'],
    steps: [
      { when: { round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command } }] } },
      { respond: { notes: 'read the tool results' } },
    ],
  });
  addScriptedAgents(org, 'approvals', {
    keeper: asking('keeper', 'echo kept > kept.txt'),
    tidier: asking('tidier', 'echo tidy > tidy.txt'),
  });
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
}

test('an approval card comes into view when it arrives, and answering one gives focus to the next, then to the view', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await page.setViewportSize({ width: 1100, height: 560 });
  await twoAsking(lemming);
  await page.getByRole('button', { name: 'Step one tick' }).click();
  const cards = page.getByRole('region', { name: 'Waiting for your approval' }).getByRole('alertdialog');
  await expect(cards).toHaveCount(2);
  // The card that came last is wholly on screen, whatever the first one pushed down.
  await expect(cards.last()).toBeInViewport({ ratio: 0.99 });
  await page.screenshot({ path: testInfo.outputPath('approval-cards-in-view.png') });

  const first = cards.first();
  const second = cards.last();
  const secondName = await second.getAttribute('aria-labelledby');
  await first.getByRole('button', { name: 'Allow once' }).click();
  await expect(cards).toHaveCount(1);
  await expect(page.locator(`[aria-labelledby="${secondName}"]`)).toBeFocused();
  await cards.first().getByRole('button', { name: 'Allow once' }).click();
  await expect(cards).toHaveCount(0);
  await expect(page.locator('#main')).toBeFocused();
});

test('an approval card that arrives while the person types leaves the focus in the field', async ({
  lemming,
}) => {
  const { page } = lemming;
  await twoAsking(lemming);
  await lemming.showView('Timeline');
  const search = page.getByRole('searchbox').first();
  await search.click();
  await page.evaluate(() => void window.lemming.run.step());
  await page.keyboard.type('kept');
  const cards = page.getByRole('region', { name: 'Waiting for your approval' }).getByRole('alertdialog');
  await expect(cards).toHaveCount(2);
  await expect(search).toBeFocused();
  await page.keyboard.type(' file');
  await expect(search).toHaveValue('kept file');
});

test('coming back to a view starts it at its top too', async ({ lemming }) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  const main = page.locator('#main');
  await lemming.showView('Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  await main.evaluate((element) => (element.scrollTop = element.scrollHeight));
  expect(await main.evaluate((element) => element.scrollTop)).toBeGreaterThan(100);
  await lemming.showView('Tool Store');
  await expect(page.getByRole('heading', { name: 'Tool Store', level: 2 })).toBeVisible();
  expect(await main.evaluate((element) => element.scrollTop)).toBe(0);
  await lemming.showView('Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  expect(await main.evaluate((element) => element.scrollTop)).toBe(0);
  // The window itself never scrolls with an org open: only the view does.
  expect(await page.evaluate(() => document.scrollingElement?.scrollTop ?? 0)).toBe(0);
});

test('opening an agent or a turn from a control that goes with its view gives focus to the new view, not the page', async ({
  lemming,
}) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Open agent researcher', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^researcher/ })).toBeVisible();
  await expect(page.locator('#main')).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.querySelector('#main')?.contains(document.activeElement))).toBe(
    true,
  );
});
