import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, REPO_ROOT, expect, test } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

async function expectNoSeriousA11yViolations(page: Page, selector: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

test("a server's form goes to the person as a card, and the image a tool gave is shown in the turn inspector", async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
    }),
  );
  addScriptedAgents(org, 'looker', {
    viewer: {
      title: 'Viewer',
      description: 'Looks at pictures',
      instructions: 'You look at pictures.',
      tools: ['group:mcp:everything'],
      steps: [
        {
          when: { round: 1 },
          respond: {
            tool_calls: [
              { tool: 'mcp__everything__get-tiny-image', args: {} },
              { tool: 'mcp__everything__trigger-elicitation-request', args: {} },
            ],
          },
        },
        { respond: { notes: 'looked' } },
      ],
    },
  });
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;

  await page.getByRole('button', { name: 'Step one tick' }).click();
  // Each card names the tool by the title its server gives it.
  for (const tool of ['Get Tiny Image Tool', 'Trigger Elicitation Request Tool']) {
    const asking = page.getByRole('alertdialog', { name: `viewer wants to use ${tool}` });
    await asking.getByRole('button', { name: 'Allow once' }).click();
    await expect(asking).toBeHidden();
  }

  const form = page.getByRole('alertdialog', { name: 'everything asks you to fill in a form' });
  await expect(form).toContainText('“Please provide inputs for the following fields:”');
  // The server's defaults are filled in; its choices carry their titles.
  await expect(form.getByLabel('Integer', { exact: true })).toHaveValue('42');
  await expect(form.getByLabel('Titled Single Select Enum', { exact: true })).toHaveValue('hero-1');
  await form.getByLabel('String (required)', { exact: true }).fill('Ada Lovelace');
  await form.getByLabel('Integer', { exact: true }).fill('500');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form.getByRole('alert').first()).toContainText('Integer must be at most 100');
  await page.screenshot({ path: testInfo.outputPath('form-card.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page, '.form-card');
  await form.getByLabel('Integer', { exact: true }).fill('7');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form).toBeHidden();

  await lemming.showView('Timeline');
  await page.locator('.timeline-row', { hasText: 'Get tiny image (everything)' }).first().click();
  await page.getByRole('button', { name: 'Open this turn in the inspector' }).click();
  await expect(page.getByRole('heading', { name: /Turn of viewer at tick/, level: 2 })).toBeVisible();
  const calls = page.getByRole('list', { name: 'Steps' }).getByTestId('tool-call');
  // The inspector names the call by the title its server gives the tool; its id is under Advanced.
  const image = calls
    .filter({ hasText: 'mcp__everything__get-tiny-image' })
    .getByRole('img', { name: /Image from the tool \(image\/png/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  const elicited = calls.filter({ hasText: 'trigger-elicitation-request' });
  await expect(elicited.getByTestId('tool-result')).toContainText('- Name: Ada Lovelace');
  await expect(elicited.getByTestId('tool-result')).toContainText('- Favorite Integer: 7');
  await image.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('inspector-image.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page, '.tool-attachment');

  // Its card says it offers resources and lists its prompts with what each asks for.
  await lemming.showView('Tool Store');
  const card = page.getByRole('listitem', { name: 'everything' });
  await expect(card).toContainText('It also offers documents and data to read.');
  await card.getByText(/Prompts it offers \(\d+\)/).click();
  const prompts = card.getByRole('list', { name: 'Prompts of everything' });
  await expect(prompts).toContainText('Arguments Prompt');
  await expect(prompts).toContainText('It asks for: city, state (optional)');
  await prompts.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('card-prompts.png') });
});
