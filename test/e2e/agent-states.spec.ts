import AxeBuilder from '@axe-core/playwright';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { AgentStateKind } from '../../engine/api';
import { DEMO_ORG, UPSTREAM_FIXTURES, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

// Issue 28, Done-means 3 and the second half of 2: an agent's state is the engine's, the same on the
// graph, the Agents list, its page, the run bar and its card; "Needs you" while a call waits for the
// person; a fix clears "will not run" and the red banner within one second.

async function openOrg(lemming: LemmingHarness, org: string): Promise<void> {
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
}

async function engineStates(page: Page): Promise<Map<string, AgentStateKind>> {
  const graph = await page.evaluate(() => window.lemming.org.graph());
  if (!graph.ok) throw new Error(graph.error.message);
  return new Map(graph.value.nodes.map((node) => [node.name, node.state.kind]));
}

const graphNode = (page: Page, agent: string) => page.locator(`[data-agent-node="${agent}"]`);
const listRow = (page: Page, agent: string) =>
  page.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: agent, exact: true });
const shownState = (place: ReturnType<Page['locator']>) =>
  place.locator('[data-agent-state]').first().getAttribute('data-agent-state');

/** Each agent's state as the five places show it, read one place at a time. */
async function statesInFivePlaces(lemming: LemmingHarness, agents: string[]) {
  const { page } = lemming;
  const seen: Record<string, Record<string, string | null>> = {};
  for (const agent of agents) seen[agent] = {};
  const note = page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('status', { name: 'Before you start' });
  if (await note.isVisible()) {
    await note.getByText(/will not run/).click();
    for (const line of await note.locator('li:has([data-agent-state])').all()) {
      const agent = await line.locator('strong').innerText();
      if (seen[agent]) seen[agent].runBar = await shownState(line);
    }
  }
  for (const agent of agents) {
    seen[agent]!.graph = await graphNode(page, agent).getAttribute('data-look');
    seen[agent]!.list = await shownState(listRow(page, agent));
    await graphNode(page, agent).locator('.agent-node-status').click();
    const card = page.getByRole('complementary', { name: agent });
    await expect(card).toBeVisible();
    seen[agent]!.card = await shownState(card);
    await card.getByRole('button', { name: 'Close the agent card' }).click();
    await page.getByRole('button', { name: `Open agent ${agent}`, exact: true }).click();
    const toolbar = page.locator('.agent-view .view-toolbar');
    await expect(toolbar.getByRole('heading', { name: new RegExp(`^${agent}`) })).toBeVisible();
    seen[agent]!.page = await shownState(toolbar);
    await lemming.showView('Org');
  }
  return seen;
}

const WILL_NOT_RUN: ReadonlySet<AgentStateKind> = new Set([
  'will_not_run',
  'out_of_credits',
  'invalid_resume',
]);

for (const [name, source] of [
  ['LeMMing’s example org', join(UPSTREAM_FIXTURES, 'example-org')],
  ['the demo', DEMO_ORG],
] as const)
  test(`states agree across the graph, the Agents list, the card, the agent page and the run bar: ${name}`, async ({
    lemming,
  }, testInfo) => {
    test.setTimeout(120_000);
    const org = lemming.copyOfFolder(source);
    await openOrg(lemming, org);
    const { page } = lemming;
    const engine = await engineStates(page);
    const agents = [...engine.keys()];
    await expect(graphNode(page, agents[0]!)).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('states-graph.png'), fullPage: true });
    const seen = await statesInFivePlaces(lemming, agents);
    for (const agent of agents) {
      const kind = engine.get(agent);
      const places = { graph: kind, list: kind, card: kind, page: kind };
      expect(seen[agent], agent).toEqual(WILL_NOT_RUN.has(kind!) ? { ...places, runBar: kind } : places);
    }
    // Nothing has run yet: no agent holds another up.
    await expect(page.getByText(/^Holds up/)).toHaveCount(0);
  });

test('an agent waiting for an approval shows "Needs you" on the graph, the list and its page, and leads to the card', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  addScriptedAgents(org, 'asks', {
    keeper: {
      title: 'Keeper',
      description: 'keeps notes',
      instructions: 'You keep notes.',
      tools: ['shell'],
      steps: [
        { when: { round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command: 'echo kept' } }] } },
        { respond: { notes: 'kept' } },
      ],
    },
  });
  await openOrg(lemming, org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  const approval = page.getByRole('alertdialog', { name: 'keeper wants to use Run a shell command' });
  await expect(approval).toBeVisible();

  const node = graphNode(page, 'keeper');
  await expect(node).toHaveAttribute('data-look', 'needs_you');
  await expect(node.getByRole('button', { name: 'Needs you' })).toBeVisible();
  await expect(listRow(page, 'keeper')).toContainText('Needs you');
  await expect(listRow(page, 'keeper')).not.toContainText('Running now');
  await node.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('needs-you-graph.png') });
  await listRow(page, 'keeper').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('needs-you-list.png') });
  const scan = await new AxeBuilder({ page })
    .include('[data-agent-node="keeper"]')
    .include('[aria-label="Agents"]')
    .analyze();
  expect(
    scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  await page.getByRole('button', { name: 'Open agent keeper', exact: true }).click();
  const toolbar = page.locator('.agent-view .view-toolbar');
  await expect(toolbar.getByRole('button', { name: 'Needs you' })).toBeVisible();
  await expect(page.getByText('Its turn waits for you to allow or deny shell.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('needs-you-page.png') });
  await toolbar.getByRole('button', { name: 'Needs you' }).click();
  await expect(approval).toBeFocused();

  await approval.getByRole('button', { name: 'Allow once' }).click();
  await expect(toolbar.locator('[data-agent-state]')).toHaveAttribute('data-agent-state', 'ready', {
    timeout: 15_000,
  });
});

test('a key pasted clears "will not run" and the red banner within one second, the failed turn kept as history', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(90_000);
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await openOrg(lemming, org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByTestId('current-tick')).toHaveText('Next tick 2', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Open agent manager', exact: true }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'It will not run' });
  await expect(banner).toContainText('has no API key yet');
  await expect(banner).toContainText('Its last turn (tick 1) failed');
  await expect(banner.getByRole('button', { name: 'Open Settings' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('will-not-run-page.png'), fullPage: true });

  // The key arrives while the page is open (another window of the app, as a person pastes it there).
  const set = await page.evaluate(() =>
    window.lemming.models.setKey({ model: 'gpt-4o', apiKey: 'sk-pasted-elsewhere-91ac' }),
  );
  expect(set.ok).toBe(true);
  await expect(banner).toBeHidden({ timeout: 1000 });
  const toolbar = page.locator('.agent-view .view-toolbar');
  await expect(toolbar.locator('[data-agent-state]')).toHaveAttribute('data-agent-state', 'ready', {
    timeout: 1000,
  });
  const note = page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('status', { name: 'Before you start' });
  await expect(note.filter({ hasText: 'manager' })).toHaveCount(0, { timeout: 1000 });
  await expect(page.getByText(/^Its last turn \(tick 1\) failed: .* That is fixed now\./)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('fixed-page.png'), fullPage: true });

  await lemming.showView('Org');
  await expect(graphNode(page, 'manager')).toHaveAttribute('data-look', 'ready');
  await expect(graphNode(page, 'manager').locator('.agent-node-reason')).toHaveCount(0);
});
