import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from '@playwright/test';
import type { TimelineEventInput } from '../../engine/api/timeline-events';
import { openTimeline } from '../../engine/timeline/timeline-store';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

const ROW_HEIGHT = 32;
const EVENT_COUNT = 120_000;
const BATCH = 10_000;
const AGENTS = ['alice', 'bob', 'carol', 'dave'];
const KINDS = ['model_call', 'tool_call', 'tool_result', 'credit', 'memory_update'];

function generatedEvent(index: number): TimelineEventInput {
  const kind = KINDS[index % KINDS.length]!;
  return {
    kind,
    agent: AGENTS[index % AGENTS.length]!,
    tick: Math.floor(index / 20) + 1,
    text: `event ${index + 1}`,
  };
}

/** Writes the events with the engine's own timeline store before the org is opened. */
function seedTimeline(org: string): void {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    for (let start = 0; start < EVENT_COUNT; start += BATCH)
      opened.timeline.appendMany(
        Array.from({ length: BATCH }, (_, offset) => generatedEvent(start + offset)),
      );
  } finally {
    opened.timeline.close();
  }
}

function rowSeqs(list: Locator): Promise<number[]> {
  return list
    .locator('.timeline-row[data-seq]')
    .evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.seq)));
}

/**
 * Moves the list's scrollbar to `fraction` of its track in one jump, as dragging its thumb does (the
 * harness's headless Chromium draws no scrollbar to grab, so the position is set directly).
 */
async function dragScrollbar(scroller: Locator, fraction: number): Promise<void> {
  await scroller.evaluate((element, to) => {
    element.scrollTop = to * (element.scrollHeight - element.clientHeight);
  }, fraction);
}

test('the scrollbar spans the whole result: dragged to the end it shows the oldest events, with and without a filter', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(180_000);
  const org = lemming.copyOfFolder(DEMO_ORG);
  seedTimeline(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Timeline');
  const { page } = lemming;
  const list = page.getByRole('list', { name: 'Events' });
  const scroller = page.getByTestId('timeline-scroll');
  await expect.poll(async () => (await rowSeqs(list))[0]).toBe(EVENT_COUNT);

  // As tall as every event, not only the ones loaded.
  expect(await scroller.evaluate((element) => element.scrollHeight)).toBe(EVENT_COUNT * ROW_HEIGHT);

  await dragScrollbar(scroller, 1);
  await expect.poll(async () => Math.min(...(await rowSeqs(list))), { timeout: 10_000 }).toBe(1);
  const atEnd = await scroller.evaluate(
    (element) => element.scrollHeight - element.clientHeight - element.scrollTop,
  );
  expect(atEnd).toBeLessThanOrEqual(1);
  expect(await list.locator('li').count()).toBeLessThan(100);
  await page.screenshot({ path: testInfo.outputPath('dragged-to-the-end.png') });

  // The middle: the rows shown are those at that position in the whole result.
  await dragScrollbar(scroller, 0.5);
  await expect
    .poll(async () => {
      const seqs = await rowSeqs(list);
      const top = await scroller.evaluate((element) => element.scrollTop);
      const firstShown = EVENT_COUNT - Math.floor(top / ROW_HEIGHT);
      return seqs.includes(firstShown) && seqs.includes(firstShown - 10);
    })
    .toBe(true);
  expect(Math.abs(Math.max(...(await rowSeqs(list))) - EVENT_COUNT / 2)).toBeLessThan(EVENT_COUNT / 20);
  await page.screenshot({ path: testInfo.outputPath('dragged-to-the-middle.png') });

  // Filtered to one agent: a quarter of the events, and the end is that agent's oldest event.
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('bob');
  await expect(page.locator('.timeline-status')).toContainText(
    `${(EVENT_COUNT / 4).toLocaleString('en-US')} match the filters`,
  );
  await expect
    .poll(() => scroller.evaluate((element) => element.scrollHeight))
    .toBe((EVENT_COUNT / 4) * ROW_HEIGHT);
  await dragScrollbar(scroller, 1);
  await expect.poll(async () => Math.min(...(await rowSeqs(list))), { timeout: 10_000 }).toBe(2);
  expect(new Set(await list.locator('.timeline-cell.agent').allTextContents())).toEqual(new Set(['bob']));

  // Filtered to one agent and one kind (no index row per pair is counted: the pair's own index is).
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('credit');
  await expect(page.locator('.timeline-status')).toContainText(
    `${(EVENT_COUNT / 20).toLocaleString('en-US')} match the filters`,
  );
  await expect
    .poll(() => scroller.evaluate((element) => element.scrollHeight))
    .toBe((EVENT_COUNT / 20) * ROW_HEIGHT);
  await dragScrollbar(scroller, 1);
  // bob is every 4th event from the 2nd, credit every 5th from the 4th: the oldest of both is event 14.
  await expect.poll(async () => Math.min(...(await rowSeqs(list))), { timeout: 10_000 }).toBe(14);
  expect(new Set(await list.locator('.timeline-cell.kind').allTextContents())).toEqual(new Set(['credit']));
  await page.screenshot({ path: testInfo.outputPath('filtered-dragged-to-the-end.png') });
});

/** A copy of the demo org with an agent whose (scripted) model writes one outbox entry of its own kind. */
function orgWithStatusReports(lemming: LemmingHarness): string {
  const org = lemming.copyOfFolder(DEMO_ORG);
  addScriptedAgents(org, 'reporting', {
    reporter: {
      title: 'Reporter',
      description: 'Reports how things stand',
      instructions: 'You report the status to the human.',
      steps: [
        {
          respond: {
            outbox_entries: [
              { kind: 'status_report', payload: { text: 'All systems green.' }, to: ['human'] },
            ],
          },
        },
      ],
    },
  });
  return org;
}

test('an outbox entry of its own kind shows that kind in its row and can be filtered to', async ({
  lemming,
}, testInfo) => {
  const org = orgWithStatusReports(lemming);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByText(/1 tick done/)).toBeVisible({ timeout: 20_000 });
  await lemming.showView('Timeline');

  const kind = page.getByRole('combobox', { name: 'Kind' });
  await expect(kind.locator('option', { hasText: 'message (status report)' })).toHaveCount(1);
  await kind.selectOption('message:status_report');
  const list = page.getByRole('list', { name: 'Events' });
  await expect(list.locator('.timeline-row')).toHaveCount(1);
  const row = list.locator('.timeline-row');
  await expect(row.locator('.timeline-cell.agent')).toHaveText('reporter');
  await expect(row.locator('.timeline-cell.kind')).toHaveText('message (status report)');
  await expect(row.locator('.timeline-cell.summary')).toContainText('All systems green.');
  await page.screenshot({ path: testInfo.outputPath('status-report-filtered.png') });

  // "message" is every message, this one included, each listed under its own kind.
  await kind.selectOption('message');
  await expect(list.locator('.timeline-row', { hasText: 'All systems green.' })).toHaveCount(1);
  await kind.selectOption('message:status_report');

  // The entry itself is kept as the agent wrote it, in the event and in the agent's outbox.
  await row.click();
  await expect(page.locator('.timeline-detail pre')).toContainText('"kind": "status_report"');
  const outbox = join(org, 'agents', 'reporter', 'outbox');
  const entries = readdirSync(outbox).map(
    (file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')) as object,
  );
  expect(entries).toEqual([expect.objectContaining({ kind: 'status_report', agent: 'reporter' })]);
});
