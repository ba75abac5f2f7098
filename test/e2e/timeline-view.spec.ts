import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimelineEventInput } from '../../engine/api/timeline-events';
import { openTimeline } from '../../engine/timeline/timeline-store';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

const EVENT_COUNT = 100_000;
const BATCH = 5000;
const AGENTS = ['alice', 'bob', 'carol', 'dave'];
const KINDS = ['message', 'model_call', 'tool_call', 'tool_result', 'credit'];
const EVENTS_PER_TICK = 20;
/** Where the event of an unknown kind sits: early, so only scrolling or filtering reaches it. */
const UNKNOWN_AT = 1234;

function generatedEvent(index: number): TimelineEventInput {
  const tick = Math.floor(index / EVENTS_PER_TICK) + 1;
  const agent = AGENTS[index % AGENTS.length]!;
  if (index === UNKNOWN_AT) {
    return {
      kind: 'telescope_reading',
      agent: 'carol',
      tick,
      star: 'Vega',
      reading: { magnitude: 0.03, filters: ['B', 'V'], observer: { station: 'north', crew: 3 } },
      '10': 'an integer-like key, kept where it was',
    };
  }
  const kind = KINDS[index % KINDS.length]!;
  return {
    kind,
    agent,
    tick,
    time: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
    ...(kind === 'message'
      ? {
          entry: {
            kind: 'message',
            recipients: ['human'],
            payload: { text: `update number ${index} from ${agent}` },
          },
        }
      : { text: `event number ${index}` }),
  };
}

/** Writes the events with the engine's own timeline store, as a long run of the org would have. */
function seedTimeline(org: string): void {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    for (let start = 0; start < EVENT_COUNT; start += BATCH) {
      opened.timeline.appendMany(
        Array.from({ length: BATCH }, (_, offset) => generatedEvent(start + offset)),
      );
    }
  } finally {
    opened.timeline.close();
  }
}

async function openTimelineView(lemming: LemmingHarness, org: string): Promise<void> {
  await lemming.openOrgAt(org);
  await lemming.showView('Timeline');
  await expect(lemming.page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
}

function rowSeqs(lemming: LemmingHarness): Promise<number[]> {
  return lemming.page
    .locator('.timeline-row')
    .evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.seq)));
}

async function expectNoSeriousA11yViolations(lemming: LemmingHarness): Promise<void> {
  const results = await new AxeBuilder({ page: lemming.page }).include('.timeline-view').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

test('a timeline of 100 000 events scrolls and filters; an event of an unknown kind shows all of its fields', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(180_000);
  const org = lemming.copyOfFolder(DEMO_ORG);
  seedTimeline(org);
  await openTimelineView(lemming, org);
  const { page } = lemming;

  const list = page.getByRole('list', { name: 'Events' });
  await expect(list.locator('.timeline-row').first()).toBeVisible();
  expect((await rowSeqs(lemming))[0]).toBe(EVENT_COUNT);
  await page.screenshot({ path: testInfo.outputPath('timeline-newest.png') });

  // Scroll far down: the window pages older events in, and the DOM keeps a bounded number of rows.
  const scroller = page.getByTestId('timeline-scroll');
  for (let step = 0; step < 12; step++) {
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await page.waitForTimeout(150);
  }
  await expect.poll(async () => Math.min(...(await rowSeqs(lemming)))).toBeLessThan(EVENT_COUNT - 1500);
  expect(await list.locator('li').count()).toBeLessThan(100);
  const calls = lemming.calls.filter((call) => call.channel === 'timeline.page');
  expect(calls.every((call) => ((call.input as { limit?: number }).limit ?? 200) <= 200)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('timeline-scrolled.png') });

  // Filters: agent, kind, tick range and text, each narrowing what the list shows.
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('bob');
  await expect
    .poll(async () => new Set(await list.locator('.timeline-cell.agent').allTextContents()))
    .toEqual(new Set(['bob']));
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('model_call');
  await expect
    .poll(async () => new Set(await list.locator('.timeline-cell.kind').allTextContents()))
    .toEqual(new Set(['model call']));
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('');
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('');
  await page.getByRole('spinbutton', { name: 'From tick' }).fill('100');
  await page.getByRole('spinbutton', { name: 'To tick', exact: true }).fill('101');
  await expect
    .poll(async () => new Set(await list.locator('.timeline-cell.tick').allTextContents()))
    .toEqual(new Set(['tick 100', 'tick 101']));
  await expect(page.locator('.timeline-status')).toContainText(`${2 * EVENTS_PER_TICK} match the filters`);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  // Jump to a tick far from the newest end: the window re-anchors there and selects its first event.
  await page.getByRole('spinbutton', { name: 'Jump to tick' }).fill('2000');
  await page.getByRole('spinbutton', { name: 'Jump to tick' }).press('Enter');
  const firstOfTick = (2000 - 1) * EVENTS_PER_TICK + 1;
  await expect(list.locator('.timeline-row[aria-current="true"]')).toHaveAttribute(
    'data-seq',
    String(firstOfTick),
  );
  await expect(list.locator('.timeline-row[aria-current="true"]')).toContainText('tick 2000');
  await expect(page.locator('.timeline-detail')).toContainText(`#${firstOfTick}`);
  await page.screenshot({ path: testInfo.outputPath('timeline-jump-to-tick.png') });
  await page.getByRole('searchbox', { name: 'Search text' }).fill('update number 4000');
  await expect(list.locator('.timeline-row')).toHaveCount(1);
  await expect(list.locator('.timeline-row')).toContainText('update number 4000 from alice');
  await page.screenshot({ path: testInfo.outputPath('timeline-text-filter.png') });

  // The unknown kind is offered as a filter, and its detail pane shows every field as stored.
  await page.getByRole('searchbox', { name: 'Search text' }).fill('');
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('telescope_reading');
  await expect(list.locator('.timeline-row')).toHaveCount(1);
  await list.locator('.timeline-row').click();
  const detail = page.getByRole('region', { name: 'Event of kind “telescope_reading”' });
  const raw = detail.locator('pre');
  await expect(raw).toContainText('"star": "Vega"');
  const shown = JSON.parse((await raw.textContent()) ?? '') as Record<string, unknown>;
  expect(shown).toEqual(JSON.parse(JSON.stringify(generatedEvent(UNKNOWN_AT))));
  const text = (await raw.textContent()) ?? '';
  const stored = lemming.calls.findLast((call) => call.channel === 'timeline.get')?.response as {
    value: { json: string };
  };
  expect(text.replace(/\s/g, '')).toBe(stored.value.json.replace(/\s/g, ''));
  for (const field of ['"magnitude": 0.03', '"B"', '"station": "north"', '"crew": 3', 'kept where it was'])
    expect(text).toContain(field);
  await expect(detail).toContainText('This app does not know events of this kind');
  await page.screenshot({ path: testInfo.outputPath('timeline-unknown-kind.png') });

  await expectNoSeriousA11yViolations(lemming);
});

test('events that land while the list is being read show up, and their agent reaches the Agent list', async ({
  lemming,
}) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const timelineFile = join(org, '.lemming', 'timeline.sqlite');
  const write = (events: TimelineEventInput[]) => {
    const opened = openTimeline(timelineFile);
    if (!opened.ok) throw new Error(opened.error.message);
    opened.timeline.appendMany(events);
    opened.timeline.close();
  };
  write(Array.from({ length: 20 }, (_, index) => generatedEvent(index)));
  await openTimelineView(lemming, org);
  const { page } = lemming;
  await expect.poll(async () => (await rowSeqs(lemming))[0]).toBe(20);

  // Coming back to the view reads the filter lists, then the list, which waits (a slow disk) while
  // another program writes an agent's first events and the app is told the timeline grew.
  await lemming.showView('Org');
  const release = lemming.holdCalls('timeline.page');
  await lemming.showView('Timeline');
  write([
    { kind: 'note', agent: 'newcomer', tick: 9, text: 'first words' },
    { kind: 'note', agent: 'newcomer', tick: 9, text: 'second words' },
  ]);
  await expect
    .poll(
      () =>
        lemming.events.some(
          (event) =>
            event.name === 'timeline.appended' && (event.payload as { lastSeq: number }).lastSeq >= 22,
        ),
      { timeout: 10_000 },
    )
    .toBe(true);
  release();

  await expect(page.getByRole('list', { name: 'Events' }).locator('.timeline-row').first()).toContainText(
    'second words',
  );
  await expect(page.getByRole('combobox', { name: 'Agent' }).locator('option[value="newcomer"]')).toHaveCount(
    1,
    { timeout: 10_000 },
  );
});

test('the live tail follows at the newest end and counts new events when the user reads further down; export says where it went', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  opened.timeline.appendMany(Array.from({ length: 600 }, (_, index) => generatedEvent(index)));
  opened.timeline.close();
  await openTimelineView(lemming, org);
  const { page } = lemming;
  // Another program writes to the org's timeline file over its own connection, as `lemming run` would;
  // the app notices the file grew on its own (it looks about once a second while it is not running).
  const append = (texts: string[], agent = 'alice') => {
    const other = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
    if (!other.ok) throw new Error(other.error.message);
    other.timeline.appendMany(texts.map((text) => ({ kind: 'note', agent, tick: 99, text })));
    other.timeline.close();
  };

  const list = page.getByRole('list', { name: 'Events' });
  await expect.poll(async () => (await rowSeqs(lemming))[0]).toBe(600);
  await list.locator('.timeline-row').first().click();
  await expect(page.getByRole('region', { name: 'Credits' })).toContainText('#600');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('region', { name: 'Tool result' })).toContainText('#599');
  await expect(list.locator('.timeline-row[data-seq="599"]')).toBeFocused();
  append(['first live note']);
  await expect(list.locator('.timeline-row').first()).toContainText('first live note', { timeout: 10_000 });
  // An agent whose first event comes right after the filter lists were read, with nothing after it,
  // still reaches the Agent list (the lists are read at most every 2 s, and once after a burst).
  append(['a newcomer speaks'], 'zed');
  await expect(page.getByRole('combobox', { name: 'Agent' }).locator('option[value="zed"]')).toHaveCount(1, {
    timeout: 10_000,
  });

  await page.getByTestId('timeline-scroll').evaluate((element) => element.scrollTo({ top: 3000 }));
  await page.waitForTimeout(200);
  const firstVisible = await list.locator('.timeline-row').first().textContent();
  append(['second live note', 'third live note']);
  const newEvents = page.getByRole('button', { name: /2 new events/ });
  await expect(newEvents).toBeVisible({ timeout: 10_000 });
  expect(await list.locator('.timeline-row').first().textContent()).toBe(firstVisible);
  await page.screenshot({ path: testInfo.outputPath('timeline-new-events.png') });
  await newEvents.click();
  await expect(list.locator('.timeline-row').first()).toContainText('third live note');
  await expect(newEvents).toHaveCount(0);

  const exportFile = join(lemming.copyOfFolder(join(org, 'shared')), 'alice.jsonl');
  lemming.setExportFile(exportFile);
  await page.getByRole('combobox', { name: 'Agent' }).selectOption('alice');
  await page.getByRole('button', { name: 'Export filtered events…' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Exported' })).toContainText(
    `Exported 153 events to ${exportFile}`,
  );
  const lines = readFileSync(exportFile, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(153);
  expect(lines.every((line) => (JSON.parse(line) as { agent: string }).agent === 'alice')).toBe(true);

  await expectNoSeriousA11yViolations(lemming);
});

test('an org without events says how to fill its timeline', async ({ lemming }, testInfo) => {
  await openTimelineView(lemming, lemming.copyOfFolder(DEMO_ORG));
  await expect(lemming.page.getByRole('heading', { name: 'Nothing has happened yet' })).toBeVisible();
  await lemming.page.screenshot({ path: testInfo.outputPath('timeline-empty.png') });
});
