import { join } from 'node:path';
import { UPSTREAM_FIXTURES, expect, test } from '../harness/lemming-fixture';

// Issue 16: opening an agent's card narrows the graph; the agent it is about stays in view.

test('opening the card of the rightmost agent refits the graph so that agent is not hidden', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await page.setViewportSize({ width: 1280, height: 800 });
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const graph = page.getByTestId('org-graph');
  await expect(graph.locator('.react-flow__node')).toHaveCount(7);
  await expect
    .poll(async () => {
      const answer = await page.evaluate(() => window.lemming.org.graph());
      return answer.ok ? answer.value.nodes.filter((node) => node.position !== null).length : -1;
    })
    .toBe(7);
  await page.waitForTimeout(400);

  // The agent drawn furthest right: the one the card would cover.
  const rightmost = await graph.locator('[data-agent-node]').evaluateAll((cards) => {
    const boxes = cards.map((card) => ({
      name: (card as HTMLElement).dataset.agentNode!,
      right: card.getBoundingClientRect().right,
    }));
    return boxes.sort((a, b) => b.right - a.right)[0]!.name;
  });
  await graph.locator(`[data-agent-node="${rightmost}"] .agent-node-title`).click();
  await expect(page.getByRole('complementary', { name: rightmost })).toBeVisible();

  await expect
    .poll(async () => {
      const room = await graph.boundingBox();
      const card = await graph.locator(`[data-agent-node="${rightmost}"]`).boundingBox();
      if (!room || !card) return 'not drawn';
      return card.x >= room.x && card.x + card.width <= room.x + room.width ? 'in view' : 'hidden';
    })
    .toBe('in view');
  await page.screenshot({ path: testInfo.outputPath('card-open-agent-in-view.png') });
});
