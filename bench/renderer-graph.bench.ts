// The org graph in Chromium with a 50-agent org: frame times while panning.
// Standalone: `npx tsx bench/renderer-graph.bench.ts`; also run by `npm run bench`.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { addGeneratedAgents } from '../test/harness/generated-org';
import type { BenchSection } from './bench-section';
import { buildRenderer, percentile, REPO_ROOT, withOrgInChromium } from './renderer-in-chromium';

const AGENTS = Number(process.env.RENDERER_GRAPH_BENCH_AGENTS ?? 50);
/** Pointer moves while the pane is held: a slow back-and-forth drag across the canvas. */
const PAN_MOVES = 480;
const PAN_STEP_PX = 3;
const TARGET_FRAME_P95_MS = 16;
const VSYNC_MS = 1000 / 60;
const DROPPED_FRAME_MS = VSYNC_MS * 1.5;

interface Measured {
  frameDeltasMs: number[];
  frameWorkMs: number[];
  layoutMs: number;
}

export default async function rendererGraphBench(): Promise<BenchSection> {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-graph-bench-'));
  try {
    const rendererDir = join(dir, 'renderer');
    await buildRenderer(rendererDir);
    const org = join(dir, 'org');
    cpSync(join(REPO_ROOT, 'examples', 'demo-org'), org, { recursive: true });
    addGeneratedAgents(org, AGENTS);
    const demo = join(dir, 'demo-org');
    cpSync(join(REPO_ROOT, 'examples', 'demo-org'), demo, { recursive: true });
    const viewport = { width: 1280, height: 800 };
    const large = await withOrgInChromium(dir, rendererDir, org, viewport, (page) => measure(page, AGENTS));
    const baseline = await withOrgInChromium(dir, rendererDir, demo, viewport, (page) => measure(page, 4));
    return section(large, baseline);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(page: Page, agents: number): Promise<Measured> {
  const began = Date.now();
  await page
    .locator('.react-flow__node')
    .nth(agents - 1)
    .waitFor({ timeout: 120_000 });
  await page.locator('.react-flow__edge-path').first().waitFor({ state: 'attached', timeout: 120_000 });
  const layoutMs = Date.now() - began;
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    const record = { deltas: [] as number[], work: [] as number[], running: true };
    (globalThis as unknown as { frames: typeof record }).frames = record;
    const afterRender = new MessageChannel();
    afterRender.port2.onmessage = (event: MessageEvent<number>) =>
      record.work.push(performance.now() - event.data);
    let last = 0;
    const frame = (now: number) => {
      if (last !== 0) record.deltas.push(now - last);
      last = now;
      afterRender.port1.postMessage(now);
      if (record.running) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  // Hold the pane at an empty spot (no card, edge or panel under the pointer) and drag it back and forth.
  const start = await page.evaluate(() => {
    const graph = document.querySelector('[data-testid="org-graph"]')!.getBoundingClientRect();
    for (let y = graph.top + 20; y < graph.bottom - 20; y += 10)
      for (let x = graph.right - 200; x > graph.left + 200; x -= 10) {
        const under = document.elementFromPoint(x, y);
        const free = (dx: number, dy: number) =>
          document.elementFromPoint(x + dx, y + dy)?.classList.contains('react-flow__pane');
        if (under?.classList.contains('react-flow__pane') && free(-200, 0) && free(-200, 60) && free(0, 60))
          return { x, y };
      }
    throw new Error('No empty spot on the pane to drag it by.');
  });
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let move = 0; move < PAN_MOVES; move += 1) {
    const phase = Math.floor(move / 60) % 2 === 0 ? 1 : -1;
    const offset = (move % 60) * PAN_STEP_PX;
    await page.mouse.move(start.x - offset - 1, start.y + (phase > 0 ? offset / 3 : 0));
  }
  await page.mouse.up();
  const frames = await page.evaluate(() => {
    const record = (
      globalThis as unknown as { frames: { deltas: number[]; work: number[]; running: boolean } }
    ).frames;
    record.running = false;
    return { deltas: record.deltas, work: record.work };
  });
  return { frameDeltasMs: frames.deltas, frameWorkMs: frames.work, layoutMs };
}

function section(measured: Measured, baseline: Measured): BenchSection {
  const workP95 = percentile(measured.frameWorkMs, 0.95);
  const p95 = percentile(measured.frameDeltasMs, 0.95);
  const dropped = measured.frameDeltasMs.filter((delta) => delta > DROPPED_FRAME_MS).length;
  return {
    title: 'Renderer: org graph (Chromium)',
    rows: [
      {
        metric: `pan frame time, ${AGENTS} agents (work per frame: pointer handling, React Flow, style, layout, paint), p95 of ${measured.frameWorkMs.length} frames (median ${percentile(measured.frameWorkMs, 0.5).toFixed(1)} ms, max ${Math.max(...measured.frameWorkMs).toFixed(1)} ms)`,
        value: `${workP95.toFixed(1)} ms`,
        target: `≤ ${TARGET_FRAME_P95_MS} ms (60 fps)`,
        met: workP95 <= TARGET_FRAME_P95_MS,
      },
      {
        metric: `frame interval while panning (requestAnimationFrame deltas), p95 (median ${percentile(measured.frameDeltasMs, 0.5).toFixed(1)} ms)`,
        value: `${p95.toFixed(1)} ms`,
      },
      {
        metric: 'frames dropped while panning (deltas over 1.5 frames)',
        value: `${dropped} of ${measured.frameDeltasMs.length} (${((100 * dropped) / Math.max(1, measured.frameDeltasMs.length)).toFixed(1)} %)`,
      },
      {
        metric: `baseline in the same run: the same pan over the 4-agent demo org, frame time p95 (median ${percentile(baseline.frameWorkMs, 0.5).toFixed(1)} ms)`,
        value: `${percentile(baseline.frameWorkMs, 0.95).toFixed(1)} ms`,
      },
      {
        metric: `open the org to every card and edge drawn (ELK layered layout included), ${AGENTS} agents`,
        value: `${measured.layoutMs} ms`,
      },
    ],
    notes: [
      `Headless system Chromium with --disable-gpu at 1280×800, the renderer built by Vite and \`window.lemming\` bound to the real IPC handlers and engine host (as in the e2e harness). The org is the demo org with generated agents up to ${AGENTS} (test/harness/generated-org.ts). Panning is a real pointer drag on the pane (${PAN_MOVES} moves of ${PAN_STEP_PX} px back and forth, sent by Playwright); each frame's work runs from its requestAnimationFrame timestamp to the first task after it rendered.`,
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await rendererGraphBench();
  console.log(JSON.stringify(result, null, 2));
}
