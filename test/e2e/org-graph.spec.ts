import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addGeneratedAgents } from '../harness/generated-org';
import { DEMO_ORG, UPSTREAM_FIXTURES, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

const EXAMPLE_ORG = join(UPSTREAM_FIXTURES, 'example-org');

/** Opens the org, trusted as it is (these tests are about the graph, not trust). */
async function openOrg(lemming: LemmingHarness, folder: string): Promise<void> {
  await lemming.trustAsIs(folder);
  lemming.setPickedFolder(folder);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
}

/**
 * Every drawn edge sampled along its rendered path, in screen pixels, against every card's box shrunk
 * by a few pixels (an edge may start and end on a card's side): the samples that fall inside a card.
 */
async function edgesBehindCards(lemming: LemmingHarness): Promise<string[]> {
  return lemming.page.evaluate(() => {
    const inset = 3;
    const boxes = [...document.querySelectorAll<HTMLElement>('.react-flow__node')].map((node) => ({
      name: node.dataset.id ?? '',
      rect: node.getBoundingClientRect(),
    }));
    const hits: string[] = [];
    for (const path of document.querySelectorAll<SVGPathElement>('.react-flow__edge-path')) {
      const matrix = path.getScreenCTM();
      if (!matrix) continue;
      const length = path.getTotalLength();
      for (let at = 0; at <= length; at += 4) {
        const local = path.getPointAtLength(at);
        const x = matrix.a * local.x + matrix.c * local.y + matrix.e;
        const y = matrix.b * local.x + matrix.d * local.y + matrix.f;
        for (const { name, rect } of boxes)
          if (
            x > rect.left + inset &&
            x < rect.right - inset &&
            y > rect.top + inset &&
            y < rect.bottom - inset
          ) {
            hits.push(`${path.closest('.react-flow__edge')?.getAttribute('data-id')} behind ${name}`);
            break;
          }
      }
    }
    return [...new Set(hits)];
  });
}

async function settledGraph(lemming: LemmingHarness, agents: number): Promise<void> {
  const graph = lemming.page.getByTestId('org-graph');
  await expect(graph.locator('.react-flow__node')).toHaveCount(agents);
  // The layout is saved once placed; by then fitView has run on measured cards.
  await expect
    .poll(async () => {
      const answer = await lemming.page.evaluate(() => window.lemming.org.graph());
      return answer.ok ? answer.value.nodes.filter((node) => node.position !== null).length : -1;
    })
    .toBe(agents);
  await lemming.page.waitForTimeout(400);
}

const cases = [
  { title: 'the demo org', agents: 4, org: (lemming: LemmingHarness) => lemming.copyOfFolder(DEMO_ORG) },
  {
    title: 'LeMMing’s example org',
    agents: 7,
    org: (lemming: LemmingHarness) => lemming.copyOfFolder(EXAMPLE_ORG),
  },
  {
    title: 'a generated 30-agent org',
    agents: 30,
    org: (lemming: LemmingHarness) => addGeneratedAgents(lemming.copyOfFolder(DEMO_ORG), 30),
  },
];

for (const scheme of ['light', 'dark'] as const)
  for (const [index, { title, agents, org }] of cases.entries())
    test(`${title} reads as a layered graph with no edge behind a card (${scheme})`, async ({
      lemming,
    }, testInfo) => {
      await lemming.page.emulateMedia({ colorScheme: scheme });
      await lemming.page.setViewportSize({ width: 1280, height: 800 });
      await openOrg(lemming, org(lemming));
      await settledGraph(lemming, agents);
      expect(await edgesBehindCards(lemming)).toEqual([]);
      const graph = lemming.page.getByTestId('org-graph');
      await expect(graph.locator('.react-flow__minimap')).toHaveCount(agents >= 9 ? 1 : 0);
      await expect(graph).toHaveScreenshot(`graph-${index}-${scheme}-1280.png`, { maxDiffPixelRatio: 0.02 });
      await lemming.page.setViewportSize({ width: 1920, height: 1080 });
      await graph.getByRole('button', { name: 'Fit View' }).click();
      await lemming.page.waitForTimeout(300);
      expect(await edgesBehindCards(lemming)).toEqual([]);
      await lemming.page.screenshot({ path: testInfo.outputPath(`graph-${index}-${scheme}-1920.png`) });
    });

test('hovering a card lights its edges and dims the rest; the zoom buttons zoom', async ({ lemming }) => {
  await openOrg(lemming, lemming.copyOfFolder(DEMO_ORG));
  await settledGraph(lemming, 4);
  const graph = lemming.page.getByTestId('org-graph');
  await graph.locator('[data-agent-node="researcher"] .agent-node-title').hover();
  await expect(graph.locator('.react-flow__edge.edge-lit')).toHaveCount(4);
  await expect(graph.locator('[data-agent-node="human"]')).toHaveClass(/agent-node-dim/);
  await expect(graph.locator('[data-agent-node="manager"]')).not.toHaveClass(/agent-node-dim/);
  // The human reads every outbox and the manager may send to anyone: badges, not arrows.
  await expect(graph.locator('[data-agent-node="human"]')).toContainText('Reads every outbox');
  await expect(graph.locator('[data-agent-node="manager"]')).toContainText('May send to anyone');

  const viewport = graph.locator('.react-flow__viewport');
  const before = await viewport.getAttribute('style');
  await graph.getByRole('button', { name: 'Zoom In' }).click();
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(before);
  const zoomed = await viewport.getAttribute('style');
  await graph.getByRole('button', { name: 'Fit View' }).click();
  await expect.poll(() => viewport.getAttribute('style')).not.toBe(zoomed);
});

test('selecting a card opens its baseball card; dragging one agent onto another grants a read, and Undo takes it back', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.page.setViewportSize({ width: 1920, height: 1080 });
  await openOrg(lemming, org);
  await settledGraph(lemming, 4);
  const page = lemming.page;
  const graph = page.getByTestId('org-graph');
  await graph.locator('[data-agent-node="writer"] .agent-node-title').click();
  const card = page.getByRole('complementary', { name: 'writer' });
  await expect(card).toContainText('Writer');
  await expect(card.getByLabel('Model of writer')).toHaveValue('demo-scripted');
  await expect(card).toContainText('Every 2 ticks, offset 1');
  await expect(card).toContainText('manager, researcher');
  await expect(card).toContainText('Cost per turn0.01 credits, plus what its model and tools use');
  await page.screenshot({ path: testInfo.outputPath('baseball-card.png') });

  const resumeOf = (name: string) =>
    JSON.parse(readFileSync(join(org, 'agents', name, 'resume.json'), 'utf8')).permissions.read_outboxes;
  const from = graph.locator('[data-agent-node="writer"] .agent-port-out');
  const onto = graph.locator('[data-agent-node="researcher"]');
  await card.getByRole('button', { name: 'Close the agent card' }).click();
  await graph.getByRole('button', { name: 'Fit View' }).click();
  await from.hover();
  await page.mouse.down();
  const box = (await onto.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByRole('status').filter({ hasText: 'researcher now reads writer' })).toBeVisible();
  expect(resumeOf('researcher')).toEqual(['manager', 'writer']);
  await expect(graph.locator('[data-id="read:writer->researcher"]')).toHaveCount(1);

  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(graph.locator('[data-id="read:writer->researcher"]')).toHaveCount(0);
  expect(resumeOf('researcher')).toEqual(['manager']);
});

test('one tick of the demo: the manager goes running → idle, its dot pings on the ring, the edge count grows', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  // The scripted manager thinks for a moment, so its running state is on screen long enough to see.
  const story = join(org, 'lemming', 'scripts', 'demo-story.yaml');
  writeFileSync(
    story,
    readFileSync(story, 'utf8').replace(
      'tool_calls: [{ tool: list_agents, args: {} }]',
      'tool_calls: [{ tool: list_agents, args: {} }]\n        delay_ms: 1500',
    ),
  );
  await openOrg(lemming, org);
  await settledGraph(lemming, 4);
  const page = lemming.page;
  const graph = page.getByTestId('org-graph');
  const researcherReadsManager = graph.locator('[data-edge-count="read:manager->researcher"]');
  await expect(researcherReadsManager).toHaveCount(0);

  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenLooks: string[] }).seenLooks = seen;
    const record = () => {
      const look = document.querySelector('[data-agent-node="manager"]')?.getAttribute('data-look');
      const lastLook = seen.filter((entry) => entry !== 'ping').pop();
      if (look && lastLook !== look) seen.push(look);
      if (document.querySelector('[data-ping="manager"]') && !seen.includes('ping')) seen.push('ping');
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true });
    record();
  });
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(graph.locator('[data-agent-node="manager"]')).toHaveAttribute('data-look', 'running');
  await expect(graph.locator('[data-ping="manager"]')).toHaveCount(1);
  await page.screenshot({ path: testInfo.outputPath('tick-running.png') });
  await expect(graph.locator('[data-agent-node="manager"]')).toHaveAttribute('data-look', 'ready', {
    timeout: 15_000,
  });
  const seen = await page.evaluate(() => (window as unknown as { seenLooks: string[] }).seenLooks);
  expect(seen.filter((look) => look !== 'ping')).toEqual(['ready', 'running', 'ready']);
  expect(seen).toContain('ping');
  await expect(researcherReadsManager).toHaveText('1');
  await page.screenshot({ path: testInfo.outputPath('tick-done.png') });
});
