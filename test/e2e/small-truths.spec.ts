import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimelineEventInput } from '../../engine/api/timeline-events';
import { openTimeline } from '../../engine/timeline/timeline-store';
import { DEMO_ORG, UPSTREAM_FIXTURES, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

// Issue 28, the small ones: each screen says what is true and puts the eye where it should be.

function seed(org: string, events: TimelineEventInput[]): void {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    opened.timeline.appendMany(events);
  } finally {
    opened.timeline.close();
  }
}

async function openDemo(lemming: LemmingHarness, org = lemming.copyOfFolder(DEMO_ORG)): Promise<string> {
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
  return org;
}

test('a model call’s time reads as a rounded duration, not 0.03200800000001891 ms', async ({ lemming }) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  seed(org, [
    {
      kind: 'model_call',
      agent: 'writer',
      tick: 1,
      round: 1,
      model: 'demo-scripted',
      provider: 'scripted',
      prompt: [],
      latency_ms: 0.03200800000001891,
    },
  ]);
  await openDemo(lemming, org);
  await lemming.showView('Timeline');
  await lemming.page.locator('.timeline-row').first().click();
  const facts = lemming.page.locator('.timeline-facts');
  await expect(facts).toContainText('under 1 ms');
  await expect(facts).not.toContainText('0.032');
});

test('Home and End go to the newest and the oldest event of the timeline', async ({ lemming }) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  seed(
    org,
    Array.from({ length: 3000 }, (_, index) => ({
      kind: 'note',
      agent: 'writer',
      tick: Math.floor(index / 10) + 1,
      text: `note ${index + 1}`,
    })),
  );
  await openDemo(lemming, org);
  await lemming.showView('Timeline');
  const list = lemming.page.getByRole('list', { name: 'Events' });
  await list.locator('.timeline-row').first().click();
  await lemming.page.keyboard.press('End');
  await expect(list.locator('.timeline-row[data-seq="1"]')).toBeFocused({ timeout: 10_000 });
  await expect(list.locator('.timeline-row[data-seq="1"]')).toHaveAttribute('aria-current', 'true');
  await lemming.page.keyboard.press('Home');
  await expect(list.locator('.timeline-row[data-seq="3000"]')).toBeFocused({ timeout: 10_000 });
  await expect(list.locator('.timeline-row[data-seq="3000"]')).toHaveAttribute('aria-current', 'true');
});

test('the tick view does not walk into a tick that has not run', async ({ lemming }) => {
  await openDemo(lemming);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByText('1 tick done')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Open agent manager', exact: true }).click();
  await page
    .getByRole('list', { name: 'Recent turns of manager' })
    .getByRole('button', { name: 'Tick 1' })
    .click();
  await page.getByRole('button', { name: 'All turns of tick 1' }).click();
  await expect(page.getByRole('heading', { name: 'Turns of tick 1' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tick 2 →' })).toBeDisabled();
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByText('Next tick 3')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Tick 2 →' })).toBeEnabled();
});

test('a message that is only a newline shows “(empty message)”, not a blank card', async ({ lemming }) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const script = join(org, 'lemming', 'scripts', 'demo-story.yaml');
  const story = readFileSync(script, 'utf8');
  const plan = 'payload: { text: "Plan: research, then a draft, then review. I will report back." }';
  expect(story).toContain(plan);
  writeFileSync(script, story.replace(plan, 'payload: { text: "\\n" }'));
  await openDemo(lemming, org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await page.getByRole('button', { name: /^Messages ?, 1 unread$/ }).click();
  const message = page
    .getByRole('list', { name: 'Your messages' })
    .getByRole('listitem', { name: 'Message from manager' });
  await expect(message.locator('.inbox-text')).toHaveText('(empty message)');
});

test('the failure reason on LeMMing’s 7-agent graph is readable however far the graph is zoomed out', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await openDemo(lemming, org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  const reason = page.locator('[data-agent-node="manager"] .agent-node-reason');
  await expect(page.getByTestId('current-tick')).toHaveText('Next tick 2', { timeout: 30_000 });
  await expect(reason).toContainText('No API key for');
  // The size on screen: the font's size times the scale the graph is drawn at.
  const onScreen = await reason.evaluate((element) => {
    const html = element as HTMLElement;
    const scale = html.getBoundingClientRect().width / html.offsetWidth;
    return parseFloat(getComputedStyle(html).fontSize) * scale;
  });
  expect(onScreen).toBeGreaterThanOrEqual(11.5);
  await page.screenshot({ path: testInfo.outputPath('graph-reason-readable.png') });
});

test('“New agent…” focuses its first field and closes on Escape, giving focus back to its button', async ({
  lemming,
}) => {
  await openDemo(lemming);
  const { page } = lemming;
  const open = page.getByRole('button', { name: 'New agent…' });
  await open.click();
  const form = page.getByRole('form', { name: 'New agent' });
  await expect(form.getByLabel('Name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(open).toBeFocused();
});

test('each view starts at its top, whatever the last view was scrolled to', async ({ lemming }) => {
  await openDemo(lemming);
  const { page } = lemming;
  const main = page.locator('#main');
  await page.getByRole('button', { name: 'Open agent researcher', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^researcher/ })).toBeVisible();
  await main.evaluate((element) => (element.scrollTop = element.scrollHeight));
  expect(await main.evaluate((element) => element.scrollTop)).toBeGreaterThan(100);
  await lemming.showView('Settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  expect(await main.evaluate((element) => element.scrollTop)).toBe(0);
  await main.evaluate((element) => (element.scrollTop = element.scrollHeight));
  await lemming.showView('Org');
  await expect(page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
  expect(await main.evaluate((element) => element.scrollTop)).toBe(0);
});
