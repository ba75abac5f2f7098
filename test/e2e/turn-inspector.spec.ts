import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { buildInspectorOrg, runInspectorOrg } from '../../engine/app/test-support/inspector-org';
import { resume, tempOrgs } from '../../engine/run/test-support/temp-org';
import { referenceServers } from '../../engine/tools/mcp/test-support/reference-servers';
import { samplingModelServer } from '../../engine/tools/mcp/test-support/sampling-model';
import { expect, test } from '../harness/lemming-fixture';

const orgs = tempOrgs();
test.afterEach(() => orgs.cleanup());

/** An org whose clerk called two tools at tick 1 (one succeeds, one fails), run by the engine itself. */
async function ranInspectorOrg(): Promise<string> {
  const org = buildInspectorOrg(orgs);
  await runInspectorOrg(org, 1);
  return org;
}

async function expectNoSeriousA11yViolations(page: Page, selector: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

test('a turn with two tool calls opens from a timeline row: each call with its result, tokens and cost, the prompt as chat', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const org = await ranInspectorOrg();
  await lemming.openOrgAt(org);
  await lemming.showView('Timeline');

  // From a timeline row: the clerk's file_read call, then "Open this turn".
  const row = page.locator('.timeline-row', { hasText: 'Read a file' }).first();
  await row.click();
  await page.getByRole('button', { name: 'Open this turn in the inspector' }).click();
  await expect(page.getByRole('heading', { name: 'Turn of clerk at tick 1', level: 2 })).toBeVisible();

  const prompt = page.getByRole('list', { name: 'Prompt' });
  await expect(prompt.locator('.chat-message')).toHaveCount(4);
  expect(
    await prompt
      .locator('.chat-message')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.part)),
  ).toEqual(['system', 'role', 'inbox', 'user']);
  await expect(prompt.locator('[data-part="role"]')).toContainText('You are clerk.');
  await expect(prompt.locator('[data-part="inbox"]')).toContainText('From human');
  await expect(prompt.locator('[data-part="inbox"]')).toContainText('Please keep the ledger.');

  const steps = page.getByRole('list', { name: 'Steps' });
  const tools = steps.getByTestId('tool-call');
  await expect(tools).toHaveCount(2);
  const write = tools.nth(0);
  await expect(write).toHaveAttribute('data-outcome', 'success');
  await expect(write).toContainText('memory_write');
  await expect(write.getByTestId('tool-outcome')).toHaveText('✓ succeeded');
  await expect(write.getByTestId('tool-result')).toContainText('Result');
  const read = tools.nth(1);
  await expect(read).toHaveAttribute('data-outcome', 'error');
  await expect(read).toContainText('file_read');
  await expect(read.getByTestId('tool-outcome')).toHaveText('✕ failed');
  await expect(read.getByTestId('tool-result')).toContainText('missing.txt');

  const calls = steps.getByTestId('model-call');
  await expect(calls).toHaveCount(2);
  for (const call of [calls.nth(0), calls.nth(1)]) {
    await expect(call.getByTestId('model-call-tokens')).toHaveText(/^[1-9][\d,]* in, [1-9][\d,]* out/);
    await expect(call.getByTestId('model-call-cost')).toHaveText(/^0\.\d+ credits$/);
  }
  // The calls come in order: model, both tools, model.
  expect(
    await steps
      .locator(':scope > li')
      .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.testid)),
  ).toEqual(expect.arrayContaining(['model-call', 'tool-call', 'tool-call', 'model-call', 'message-sent']));
  await expect(steps.getByTestId('message-sent')).toContainText('to human');

  // The raw JSON of an event is behind a disclosure, exactly as stored.
  await read.getByText('Raw JSON of the result').click();
  await expect(read.getByLabel(/Raw JSON of the result/)).toContainText('"kind": "tool_result"');
  await page.screenshot({ path: testInfo.outputPath('turn-inspector.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page, '.inspector');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page, '.inspector');
  await page.screenshot({ path: testInfo.outputPath('turn-inspector-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // The tick view lists the tick's turns as a waterfall; a bar's agent opens its turn.
  await page.getByRole('button', { name: 'All turns of tick 1' }).click();
  const waterfall = page.getByRole('list', { name: 'Turns of tick 1' });
  await expect(waterfall.locator('.waterfall-row')).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('tick-waterfall.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page, '.inspector');
  await waterfall.getByRole('button', { name: 'herald' }).click();
  await expect(page.getByRole('heading', { name: 'Turn of herald at tick 1', level: 2 })).toBeVisible();
});

test('the agent page lists its turns, each opening the inspector', async ({ lemming }) => {
  const { page } = lemming;
  const org = await ranInspectorOrg();
  await lemming.openOrgAt(org);
  await page.getByRole('button', { name: 'Open agent clerk', exact: true }).click();
  const turns = page.getByRole('list', { name: 'Recent turns of clerk' });
  await turns.getByRole('button', { name: 'Tick 1' }).click();
  await expect(page.getByRole('heading', { name: 'Turn of clerk at tick 1', level: 2 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Steps' }).getByTestId('tool-call')).toHaveCount(2);
});

test('a question an MCP server asked the agent’s model shows under the tool call it came during', async ({
  lemming,
}, testInfo) => {
  const tool = 'mcp__everything__trigger-sampling-request';
  const model = await samplingModelServer(tool, { prompt: 'the capital of France' });
  try {
    const org = orgs.build({
      'lemming/config/models.json': {
        v: {
          provider: 'openai-compatible',
          model_name: 'v',
          stream: false,
          provider_config: {
            base_url: `${model.url}/v1`,
            max_retries: 0,
            prices: { input_per_million: 1_000_000, output_per_million: 1_000_000 },
          },
        },
      },
      'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
      'lemming/config/credits.json': { ada: { model: 'v', cost_per_action: 0, credits_left: 10_000 } },
      'agents/ada/resume.json': resume('ada', {
        model: { key: 'v', max_tokens: 50 },
        permissions: { read_outboxes: [], tools: [tool] },
      }),
    });
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    const { page } = lemming;
    await lemming.showView('Tool Store');
    const card = page.getByRole('listitem', { name: 'everything' });
    await card.getByRole('switch', { name: 'Let this server ask your models' }).click();
    await expect(card.getByRole('list', { name: 'Tools of everything' })).toContainText(
      'trigger-sampling-request',
    );

    await page.getByRole('button', { name: 'Step one tick' }).click();
    const asking = page.getByRole('alertdialog', { name: 'ada wants to use Trigger Sampling Request Tool' });
    await asking.getByRole('button', { name: 'Allow once' }).click();
    await expect(asking).toBeHidden();
    await lemming.showView('Timeline');
    await page.locator('.timeline-row', { hasText: 'Trigger sampling request (everything)' }).first().click();
    await page.getByRole('button', { name: 'Open this turn in the inspector' }).click();
    await expect(page.getByRole('heading', { name: 'Turn of ada at tick 1', level: 2 })).toBeVisible();

    const steps = page.getByRole('list', { name: 'Steps' });
    await expect(steps.getByTestId('tool-call').getByTestId('tool-result')).toContainText('Paris');
    const calls = steps.getByTestId('model-call');
    await expect(calls).toHaveCount(3);
    const question = calls.nth(1);
    await expect(question).toContainText(`Question from the server everything during ${tool}, answered by v`);
    await expect(question.getByTestId('model-call-tokens')).toHaveText('20 in, 2 out');
    await expect(question.getByTestId('model-call-cost')).toHaveText('22 credits');
    // In order: the agent's model, its tool call, the server's question during it, the agent's model again.
    expect(
      await steps
        .locator(':scope > li')
        .evaluateAll((items) =>
          items
            .map((item) => (item as HTMLElement).dataset.testid)
            .filter((id) => id === 'model-call' || id === 'tool-call'),
        ),
    ).toEqual(['model-call', 'tool-call', 'model-call', 'model-call']);
    await question.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('turn-inspector-server-question.png') });
    await expectNoSeriousA11yViolations(page, '.asked-by-server');
  } finally {
    await model.close();
  }
});
