import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { resume, tempOrgs } from '../../engine/run/test-support/temp-org';
import { expect, test } from '../harness/lemming-fixture';

const orgs = tempOrgs();
test.afterEach(() => orgs.cleanup());

/** Ada rewrites notes.md and runs the shell, then sends Bo a message and adds to her memory. */
function adaOrg(): string {
  return orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      agents: {
        ada: [
          {
            when: { round: 1 },
            respond: {
              tool_calls: [
                { tool: 'file_write', args: { path: 'notes.md', content: 'a new plan' } },
                { tool: 'shell', args: { command: 'rm -rf shared' } },
              ],
            },
          },
          {
            respond: {
              outbox_entries: [{ kind: 'message', payload: { text: 'Plan is ready' }, to: ['bo'] }],
              memory_updates: [{ key: 'done', op: 'append', value: 'plan' }],
            },
          },
        ],
      },
      default: [{ respond: { notes: 'nothing to do' } }],
    },
    'agents/ada/resume.json': resume('ada', {
      title: 'Planner',
      permissions: { read_outboxes: [], tools: ['file_write', 'shell'] },
    }),
    'agents/ada/workspace/notes.md': 'the old plan\n',
    'agents/bo/resume.json': resume('bo'),
    'shared/keep.md': 'kept\n',
  });
}

const WOULD_DO = [
  'Would do: Write a file notes.md (10 characters)',
  'Would do: Run a shell command rm -rf shared',
  "Would do: Add to the memory 'done'",
  'Would do: Send a message to bo: Plan is ready',
];

async function expectReadable(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include('main').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`),
  ).toEqual([]);
}

test('"Rehearse a turn" on the agent page shows what the turn would do, does none of it, and opens in the inspector and from the timeline', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(90_000);
  const { page } = lemming;
  const org = adaOrg();
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await page.getByTestId('org-graph').getByRole('button', { name: 'Open agent ada', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^ada/, level: 2 })).toBeVisible();

  await page.getByRole('button', { name: 'Rehearse a turn' }).click();
  const result = page.getByTestId('rehearsal-result');
  await expect(result).toContainText('it would have done 4 things; none was done.');
  await expect(result.getByRole('listitem')).toHaveText(WOULD_DO);
  expect(readFileSync(join(org, 'agents/ada/workspace/notes.md'), 'utf8')).toBe('the old plan\n');
  expect(readFileSync(join(org, 'shared/keep.md'), 'utf8')).toBe('kept\n');
  await result.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('agent-page-rehearsed.png') });

  await result.getByRole('button', { name: 'Open the rehearsal in the inspector' }).click();
  await expect(page.getByRole('heading', { name: "Rehearsal of ada's turn", level: 2 })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'What it would have done' }).getByTestId('would-do'),
  ).toHaveText(WOULD_DO);
  const held = page.getByRole('list', { name: 'Steps' }).getByTestId('tool-call');
  await expect(held).toHaveCount(2);
  await expect(held.getByTestId('tool-outcome')).toHaveText([
    'Held back: not run in a rehearsal',
    'Held back: not run in a rehearsal',
  ]);
  await expect(held.first().getByTestId('tool-result')).toContainText(
    'Rehearsal: this would write 10 characters to notes.md; nothing was written.',
  );
  await page.screenshot({ path: testInfo.outputPath('inspector-rehearsal.png'), fullPage: true });
  await page
    .getByRole('list', { name: 'Steps' })
    .screenshot({ path: testInfo.outputPath('inspector-rehearsal-steps.png') });
  await expectReadable(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('inspector-rehearsal-dark.png'), fullPage: true });
  await expectReadable(page);
  await page.emulateMedia({ colorScheme: 'light' });

  await lemming.showView('Timeline');
  await page.locator('.timeline-row', { hasText: 'rehearsed a turn' }).first().click();
  await expect(page.getByRole('heading', { name: 'Rehearsal (nothing was done)' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('timeline-rehearsal.png') });
  await page.getByRole('button', { name: 'Open this rehearsal in the inspector' }).click();
  await expect(page.getByRole('heading', { name: "Rehearsal of ada's turn", level: 2 })).toBeVisible();
});

test('the agent card on the graph rehearses a turn too', async ({ lemming }, testInfo) => {
  const { page } = lemming;
  const org = adaOrg();
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const graph = page.getByTestId('org-graph');
  await graph.locator('[data-agent-node="ada"] .agent-node-title').click();
  const card = page.getByRole('complementary', { name: 'ada' });
  await card.getByRole('button', { name: 'Rehearse a turn' }).click();
  await expect(card.getByTestId('rehearsal-result').getByRole('listitem')).toHaveText(WOULD_DO);
  await card.getByTestId('rehearsal-result').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('graph-card-rehearsed.png') });
  await card.getByRole('button', { name: 'Open the rehearsal in the inspector' }).click();
  await expect(page.getByRole('heading', { name: "Rehearsal of ada's turn", level: 2 })).toBeVisible();
});
