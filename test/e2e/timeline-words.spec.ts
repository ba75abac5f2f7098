import { join } from 'node:path';
import type { TimelineEventInput } from '../../engine/api/timeline-events';
import { openTimeline } from '../../engine/timeline/timeline-store';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

test.use({ viewport: { width: 1280, height: 800 } });

function seed(org: string, events: TimelineEventInput[]): void {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    opened.timeline.appendMany(events);
  } finally {
    opened.timeline.close();
  }
}

async function openTimelineOf(lemming: LemmingHarness, events: TimelineEventInput[]) {
  const org = lemming.copyOfFolder(DEMO_ORG);
  seed(org, events);
  await lemming.openOrgAt(org);
  await lemming.page
    .getByRole('navigation', { name: 'Main views' })
    .getByRole('button', { name: /^Timeline/ })
    .click();
  await expect(lemming.page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
}

const twoHoursAgo = () => new Date(Date.now() - 2 * 3600 * 1000).toISOString();

test('one event is "1 event", and its time is local with how long ago', async ({ lemming }) => {
  const time = twoHoursAgo();
  await openTimelineOf(lemming, [{ kind: 'model_call', agent: 'writer', tick: 1, time, text: 'thinking' }]);
  const { page } = lemming;
  await expect(page.locator('.timeline-status')).toHaveText('1 event recorded');

  const row = page.getByRole('list', { name: 'Events' }).getByRole('button').first();
  await expect(row.locator('.kind')).toHaveText('model call');
  await row.click();
  const facts = page.locator('.timeline-facts');
  await expect(facts).toContainText('model call');
  await expect(facts).toContainText('(2 hours ago)');
  await expect(facts).toContainText(new Date(time).toLocaleString('en-US', { year: 'numeric' }));
  await expect(facts).not.toContainText(time);
});

test('an unknown kind is shown and filterable by its own name, and the detail pane follows the filter', async ({
  lemming,
}, testInfo) => {
  const time = twoHoursAgo();
  await openTimelineOf(lemming, [
    { kind: 'model_call', agent: 'writer', tick: 1, time, text: 'a draft' },
    { kind: 'telescope_reading', agent: 'researcher', tick: 2, time, star: 'Vega' },
    { kind: 'model_call', agent: 'writer', tick: 2, time, text: 'another draft' },
  ]);
  const { page } = lemming;
  const rows = page.getByRole('list', { name: 'Events' }).getByRole('button');
  await expect(rows).toHaveCount(3);
  await rows.filter({ hasText: 'a draft' }).click();
  await expect(page.getByRole('region', { name: /model call|Model call/i })).toBeVisible();

  const kind = page.getByRole('combobox', { name: 'Kind' });
  await expect(kind.locator('option', { hasText: 'telescope reading' })).toHaveCount(1);
  await kind.selectOption('telescope_reading');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator('.kind')).toHaveText('telescope reading');
  // The event the filter hid is no longer in the detail pane.
  const detail = page.locator('.timeline-detail');
  await expect(detail).toContainText('Select an event in the list');
  await expect(detail).not.toContainText('a draft');
  await page.screenshot({ path: testInfo.outputPath('timeline-filtered.png') });
});
