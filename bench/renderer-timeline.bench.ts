// The Timeline view in Chromium over a 1M-event timeline: time to first rows and scroll frame times.
// Standalone: `npx tsx bench/renderer-timeline.bench.ts`; also run by `npm run bench`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { TimelineEventInput } from '../engine/api/timeline-events';
import { openTimeline } from '../engine/timeline/timeline-store';
import { buildRenderer, percentile, REPO_ROOT, withOrgInChromium } from './renderer-in-chromium';
import type { BenchSection } from './bench-section';

const EVENT_COUNT = Number(process.env.RENDERER_TIMELINE_BENCH_EVENTS ?? 1_000_000);
const BATCH_SIZE = 10_000;
const AGENTS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
const KINDS = ['message', 'model_call', 'tool_call', 'tool_result', 'credit', 'memory_update'];
const FIRST_ROWS_RUNS = 7;
const SCROLL_FRAMES = 600;
/** Pixels per frame while scrolling: about 3,600 rows a second, a fast fling through the list. */
const SCROLL_STEP_PX = 192;
const TARGET_FIRST_ROWS_MS = 300;
/** Where the scrollbar is dragged, in turn: the end and the middle are measured, the others move away between them. */
const DRAG_FRACTIONS = [1, 0.2, 0.5, 0.8, 1, 0.3, 0.5, 0.1, 1, 0.7, 0.5, 0.9];
const TARGET_DRAG_MS = 300;
const TARGET_FRAME_P95_MS = 16;
/** requestAnimationFrame deltas cannot be shorter than the display's frame: 16.7 ms at 60 Hz. */
const VSYNC_MS = 1000 / 60;
/** A delta this long means at least one frame was dropped. */
const DROPPED_FRAME_MS = VSYNC_MS * 1.5;

export default async function rendererTimelineBench(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-renderer-bench-'));
  try {
    const rendererDir = join(dir, 'renderer');
    await buildRenderer(rendererDir);
    const org = join(dir, 'demo-org');
    cpSync(join(REPO_ROOT, 'examples', 'demo-org'), org, { recursive: true });
    const seedSeconds = seedTimeline(join(org, '.lemming', 'timeline.sqlite'));
    const measured = await measureInChromium(dir, rendererDir, org);
    return section(measured, seedSeconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function benchEvent(index: number): TimelineEventInput {
  const kind = KINDS[index % KINDS.length]!;
  return {
    kind,
    agent: AGENTS[index % AGENTS.length]!,
    tick: Math.floor(index / 40) + 1,
    time: new Date(Date.UTC(2025, 0, 1) + index * 1000).toISOString(),
    text: `${kind} number ${index} about the quarterly report`,
  };
}

/** Writes the events once, 10k per transaction, with the engine's store; returns the seconds it took. */
function seedTimeline(file: string): number {
  const began = performance.now();
  const opened = openTimeline(file);
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    for (let start = 0; start < EVENT_COUNT; start += BATCH_SIZE) {
      const size = Math.min(BATCH_SIZE, EVENT_COUNT - start);
      opened.timeline.appendMany(Array.from({ length: size }, (_, offset) => benchEvent(start + offset)));
    }
  } finally {
    opened.timeline.close();
  }
  return (performance.now() - began) / 1000;
}

interface DragTimes {
  endMs: number[];
  middleMs: number[];
}

interface Measured {
  firstRowsMs: number[];
  drag: DragTimes;
  dragFiltered: DragTimes;
  frameDeltasMs: number[];
  /** Per frame: from the frame's start (the rAF timestamp) to the first task after it rendered. */
  frameWorkMs: number[];
  maxDomRows: number;
  rowsReached: number;
}

async function measureInChromium(dir: string, rendererDir: string, org: string): Promise<Measured> {
  return withOrgInChromium(dir, rendererDir, org, { width: 1200, height: 800 }, async (page) => {
    const firstRowsMs: number[] = [];
    for (let run = 0; run < FIRST_ROWS_RUNS; run++) firstRowsMs.push(await timeToFirstRows(page));
    const frames = await scrollFrames(page);
    const drag = await dragTimes(page);
    await page.getByRole('combobox', { name: 'Agent' }).selectOption(AGENTS[1]!);
    await page.locator('.timeline-status').getByText('match the filters').waitFor();
    const dragFiltered = await dragTimes(page);
    return { firstRowsMs, drag, dragFiltered, ...frames };
  });
}

/** From the click on "Timeline" (the view mounts and reads its first page) to rows painted. */
async function timeToFirstRows(page: Page): Promise<number> {
  const nav = page.getByRole('navigation', { name: 'Main views' });
  await nav.getByRole('button', { name: 'Org', exact: true }).click();
  await page.locator('.timeline-view').waitFor({ state: 'detached' });
  return page.evaluate(
    () =>
      new Promise<number>((resolveTime) => {
        const button = [...document.querySelectorAll('nav[aria-label="Main views"] button')].find((element) =>
          element.textContent?.startsWith('Timeline'),
        ) as HTMLButtonElement;
        const began = performance.now();
        button.click();
        const poll = () => {
          if (document.querySelector('.timeline-row')) {
            // The frame after the rows appear in the DOM is the one that paints them.
            requestAnimationFrame(() => resolveTime(performance.now() - began));
          } else requestAnimationFrame(poll);
        };
        requestAnimationFrame(poll);
      }),
  );
}

/**
 * Moves the scrollbar to each of DRAG_FRACTIONS of its track in one jump (what letting go of a dragged
 * thumb does) and times, from the move to the frame that paints it, until every row in view is a real
 * row rather than a placeholder: the page read by position over IPC, React and the paint.
 */
async function dragTimes(page: Page): Promise<DragTimes> {
  const times: DragTimes = { endMs: [], middleMs: [] };
  for (const fraction of DRAG_FRACTIONS) {
    const ms = await page.evaluate(
      (to) =>
        new Promise<number>((resolveTime) => {
          const scroller = document.querySelector('[data-testid="timeline-scroll"]') as HTMLElement;
          const began = performance.now();
          scroller.scrollTop = to * (scroller.scrollHeight - scroller.clientHeight);
          const poll = () => {
            const view = scroller.getBoundingClientRect();
            const inView = [...scroller.querySelectorAll('.timeline-row-item')].filter((item) => {
              const box = item.getBoundingClientRect();
              return box.bottom > view.top && box.top < view.bottom;
            });
            if (inView.length > 0 && inView.every((item) => item.querySelector('.timeline-row[data-seq]')))
              requestAnimationFrame(() => resolveTime(performance.now() - began));
            else requestAnimationFrame(poll);
          };
          requestAnimationFrame(poll);
        }),
      fraction,
    );
    if (fraction === 1) times.endMs.push(ms);
    if (fraction === 0.5) times.middleMs.push(ms);
  }
  return times;
}

/**
 * Scrolls down by a fixed step every frame (paging older events in as it goes) and records, per frame,
 * the interval since the previous frame and the frame's work: from its start (the rAF timestamp, taken
 * before scroll events and rAF callbacks run) to the first task after it was rendered (a message posted
 * in the rAF callback is delivered once style, layout and paint of that frame are done).
 */
type FrameMeasures = Omit<Measured, 'firstRowsMs' | 'drag' | 'dragFiltered'>;

async function scrollFrames(page: Page): Promise<FrameMeasures> {
  return page.evaluate(
    ({ frames, step }) =>
      new Promise<FrameMeasures>((resolveFrames) => {
        const scroller = document.querySelector('[data-testid="timeline-scroll"]') as HTMLElement;
        const deltas: number[] = [];
        const work: number[] = [];
        const afterRender = new MessageChannel();
        afterRender.port2.onmessage = (event: MessageEvent<number>) =>
          work.push(performance.now() - event.data);
        let maxDomRows = 0;
        let minSeq = Number.POSITIVE_INFINITY;
        let last = 0;
        const frame = (now: number) => {
          if (last !== 0) deltas.push(now - last);
          last = now;
          afterRender.port1.postMessage(now);
          scroller.scrollTop += step;
          const rows = document.querySelectorAll('.timeline-row[data-seq]');
          maxDomRows = Math.max(maxDomRows, rows.length);
          for (const row of rows) minSeq = Math.min(minSeq, Number((row as HTMLElement).dataset.seq));
          if (deltas.length < frames) requestAnimationFrame(frame);
          else
            setTimeout(
              () =>
                resolveFrames({ frameDeltasMs: deltas, frameWorkMs: work, maxDomRows, rowsReached: minSeq }),
              50,
            );
        };
        requestAnimationFrame(frame);
      }),
    { frames: SCROLL_FRAMES, step: SCROLL_STEP_PX },
  );
}

function dragRows(label: string, times: DragTimes): BenchSection['rows'] {
  return (
    [
      ['end', times.endMs],
      ['middle', times.middleMs],
    ] as const
  ).map(([where, ms]) => {
    const median = percentile(ms, 0.5);
    return {
      metric: `scrollbar dragged to the ${where}, ${label}: time to its rows shown (median of ${ms.length}; worst ${Math.max(...ms).toFixed(0)} ms)`,
      value: `${median.toFixed(0)} ms`,
      target: `≤ ${TARGET_DRAG_MS} ms`,
      met: median <= TARGET_DRAG_MS,
    };
  });
}

function section(measured: Measured, seedSeconds: number): BenchSection {
  const firstRows = percentile(measured.firstRowsMs, 0.5);
  const p95 = percentile(measured.frameDeltasMs, 0.95);
  const workP95 = percentile(measured.frameWorkMs, 0.95);
  const count = EVENT_COUNT.toLocaleString('en-US');
  const scrolledPast = EVENT_COUNT - measured.rowsReached + 1;
  const dropped = measured.frameDeltasMs.filter((delta) => delta > DROPPED_FRAME_MS).length;
  return {
    title: 'Renderer: Timeline view (Chromium)',
    rows: [
      {
        metric: `time to first rows, ${count} events (median of ${FIRST_ROWS_RUNS}; worst ${Math.max(...measured.firstRowsMs).toFixed(0)} ms)`,
        value: `${firstRows.toFixed(0)} ms`,
        target: `≤ ${TARGET_FIRST_ROWS_MS} ms`,
        met: firstRows <= TARGET_FIRST_ROWS_MS,
      },
      {
        metric: `scroll frame time (work per frame: scroll handling, React, style, layout, paint), p95 of ${measured.frameWorkMs.length} frames at ${SCROLL_STEP_PX} px/frame (median ${percentile(measured.frameWorkMs, 0.5).toFixed(1)} ms, max ${Math.max(...measured.frameWorkMs).toFixed(1)} ms)`,
        value: `${workP95.toFixed(1)} ms`,
        target: `≤ ${TARGET_FRAME_P95_MS} ms`,
        met: workP95 <= TARGET_FRAME_P95_MS,
      },
      {
        metric: `frame interval while scrolling (requestAnimationFrame deltas; never below one 60 Hz frame, ${VSYNC_MS.toFixed(1)} ms), p95 (median ${percentile(measured.frameDeltasMs, 0.5).toFixed(1)} ms, max ${Math.max(...measured.frameDeltasMs).toFixed(1)} ms)`,
        value: `${p95.toFixed(1)} ms`,
      },
      {
        metric: 'frames dropped while scrolling (deltas over 1.5 frames)',
        value: `${dropped} of ${measured.frameDeltasMs.length} (${((100 * dropped) / measured.frameDeltasMs.length).toFixed(1)} %)`,
      },
      {
        metric: 'rows in the DOM at most while scrolling; events scrolled through',
        value: `${measured.maxDomRows}; ${scrolledPast.toLocaleString('en-US')}`,
      },
      ...dragRows(`${count} events`, measured.drag),
      ...dragRows(`filtered to one agent of ${AGENTS.length}`, measured.dragFiltered),
    ],
    notes: [
      `Headless system Chromium with --disable-gpu, the renderer built by Vite and \`window.lemming\` bound to the real IPC handlers and engine host in the same Node process (as in the e2e harness). The ${count} events were written once with the timeline store in batches of ${BATCH_SIZE.toLocaleString('en-US')} (${seedSeconds.toFixed(1)} s). While the list scrolls programmatically (paging older events in over IPC), each frame's work is measured from the frame's start (the requestAnimationFrame timestamp) to the first task after that frame rendered; the frame interval (requestAnimationFrame deltas) is reported too, and cannot be shorter than the display's 16.7 ms. Time to first rows runs from the click on "Timeline" (the view mounts empty and reads its first page) to the frame after rows are in the DOM.`,
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await rendererTimelineBench();
  console.log(JSON.stringify(result, null, 2));
}
