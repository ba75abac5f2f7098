import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

// Issue 30, Done-means 2 (the panel's half): a model with no prices shows "Unpriced" with its tokens,
// never 0; a budget in money names the agents it cannot see; an agent paused over its budget says so
// and is resumed with one click.

test.use({ viewport: { width: 1280, height: 900 } });

function editJson(file: string, edit: (value: Record<string, any>) => void): void {
  const value = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  edit(value);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

test('the credits panel shows an unpriced model in tokens, what a money budget cannot see, and resumes an agent over budget', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  editJson(join(org, 'lemming/config/models.json'), (models) => {
    models['local-scripted'] = {
      ...models['demo-scripted'],
      provider_config: { script: 'lemming/scripts/demo-story.yaml' },
    };
  });
  editJson(join(org, 'agents/writer/resume.json'), (resume) => {
    resume.model.key = 'local-scripted';
  });
  // The manager's first call could cost 0.2 credits: more than its day's budget, so it is paused before it.
  writeFileSync(
    join(org, 'lemming/config/budgets.json'),
    JSON.stringify({ org: { monthly_money: 50 }, agents: { manager: { daily_credits: 0.05 } } }),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  const controls = page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 2');

  const credits = page.getByRole('list', { name: 'Credit balances' });
  const manager = credits.getByRole('listitem', { name: 'manager', exact: true });
  await expect(manager.getByText('Paused: over budget', { exact: true })).toBeVisible();
  await expect(manager.getByRole('status')).toContainText(
    'Paused: manager is over its budget of 0.05 credits a day.',
  );
  await expect(manager.getByRole('list', { name: 'Budgets' })).toContainText(
    "The org’s budget 50 a month in money (at your models' prices)",
  );
  await expect(manager.getByRole('list', { name: 'Budgets' })).toContainText(
    'cannot see writer (unpriced: no prices for their model)',
  );

  const writer = credits.getByRole('listitem', { name: 'writer', exact: true });
  await expect(writer.getByTestId('unpriced')).toContainText(
    /^Unpriced Its model local-scripted has no prices, so what it costs is not known: 1 call, [\d,]+ tokens in, [\d,]+ tokens out\.$/,
  );
  await page
    .getByRole('region', { name: 'Credits' })
    .screenshot({ path: testInfo.outputPath('credits-budgets.png') });

  await writer.screenshot({ path: testInfo.outputPath('credits-unpriced.png') });

  await page.getByRole('button', { name: 'Open agent manager', exact: true }).click();
  const toolbar = page.locator('.agent-view .view-toolbar');
  await expect(toolbar.locator('[data-agent-state]').first()).toHaveAttribute(
    'data-agent-state',
    'over_budget',
  );
  await expect(
    page.getByRole('alert').filter({ hasText: 'Paused: manager is over its budget' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resume manager' })).toBeVisible();
  await page.locator('.agent-view').screenshot({ path: testInfo.outputPath('agent-over-budget.png') });
  await lemming.showView('Org');

  await manager.getByRole('button', { name: 'Resume manager' }).click();
  await expect(manager.getByText('Paused: over budget', { exact: true })).toHaveCount(0);
  const resumed = await page.evaluate(() => window.lemming.timeline.page({ kinds: ['budget_resumed'] }));
  expect(resumed.ok && resumed.value.rows.length).toBe(1);
});
