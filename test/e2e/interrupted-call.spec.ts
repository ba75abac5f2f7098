import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { bellOrg, runTicksInChild } from '../../engine/run/test-support/bell-org';
import { tempOrgs } from '../../engine/run/test-support/temp-org';
import { expect, test } from '../harness/lemming-fixture';

const orgs = tempOrgs();
test.afterEach(() => orgs.cleanup());

/** No serious accessibility problem in the inspector (the new badge's contrast among them). */
async function expectReadable(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include('.inspector').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

const NOT_KNOWN = 'Started before the app stopped; whether it finished is not known';

test('a tool call the app stopped during shows as started with its outcome unknown, and the next step does not ring it again', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(90_000);
  const { page } = lemming;
  // Tick 1 rings the bell; during tick 2's ring (which never answers) the engine is killed.
  const { org, rings } = bellOrg(orgs, 2);
  expect(await runTicksInChild(org, 2, () => rings() === 2)).toEqual({ finished: false });
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Timeline');

  const intent = page.locator('.timeline-row', { hasText: 'about to use Ring bell (bell)' }).first();
  await intent.click();
  await expect(page.getByText('About to run a tool that may change things')).toBeVisible();
  await page.getByRole('button', { name: 'Open this turn in the inspector' }).click();
  await expect(page.getByRole('heading', { name: 'Turn of ada at tick 2', level: 2 })).toBeVisible();
  const call = page.getByRole('list', { name: 'Steps' }).getByTestId('tool-call');
  await expect(call).toHaveCount(1);
  await expect(call).toHaveAttribute('data-outcome', 'unknown');
  await expect(call.getByTestId('tool-outcome')).toHaveText(NOT_KNOWN);
  await page.screenshot({ path: testInfo.outputPath('inspector-call-cut-off.png'), fullPage: true });
  await expectReadable(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: testInfo.outputPath('inspector-call-cut-off-dark.png'), fullPage: true });
  await expectReadable(page);
  await page.emulateMedia({ colorScheme: 'light' });

  // The app runs tick 2 again: the model is told, and the bell is not rung a third time.
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect
    .poll(async () =>
      page.evaluate(async () => {
        const answer = await window.lemming.timeline.page({ kinds: ['turn_completed'], limit: 10 });
        return answer.ok ? answer.value.rows.length : -1;
      }),
    )
    .toBe(2);
  expect(rings()).toBe(2);
  await lemming.showView('Timeline');
  await page.locator('.timeline-row', { hasText: 'not run again' }).first().click();
  await page.getByRole('button', { name: 'Open this turn in the inspector' }).click();
  await expect(page.getByRole('heading', { name: 'Turn of ada at tick 2', level: 2 })).toBeVisible();
  const resumed = page.getByRole('list', { name: 'Steps' }).getByTestId('tool-call');
  await expect(resumed).toHaveCount(1);
  await expect(resumed.getByTestId('tool-outcome')).toHaveText(NOT_KNOWN);
  await expect(resumed.getByTestId('tool-result')).toContainText('It was not run again');
  await resumed.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('inspector-call-not-run-again.png') });
});
