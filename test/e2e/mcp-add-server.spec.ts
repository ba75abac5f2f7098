import AxeBuilder from '@axe-core/playwright';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sendJson, startLoopbackServer } from '../../engine/models/test-support/loopback-server';
import { DEMO_ORG, REPO_ROOT, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });

const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const TOKEN = 'tok-Form-5521-Zq8w';
const MESSAGE = 'hello from the form';
const SECOND_KEY = 'key-Paste-7730-Hw2v';

/** The everything server's tools the model calls, one after the other, with their arguments. */
const CALLS = [
  { name: 'mcp__everything__echo', title: 'Echo Tool', arguments: { message: MESSAGE } },
  { name: 'mcp__everything__get-tiny-image', title: 'Get Tiny Image Tool', arguments: {} },
];

interface ChatMessage {
  role: string;
  content?: string | { type: string; image_url?: { url: string } }[] | null;
}

/**
 * An OpenAI-compatible model on loopback that calls the everything server's echo tool, then its tiny
 * image tool, then, once both results are in the conversation, says it is done. It keeps the image URLs
 * it was shown.
 */
async function toolCallingModel() {
  const imagesShown: string[] = [];
  const server = await startLoopbackServer((request, response) => {
    const messages = (request.json as { messages?: ChatMessage[] } | undefined)?.messages ?? [];
    for (const { content } of messages)
      if (Array.isArray(content))
        for (const part of content) if (part.image_url) imagesShown.push(part.image_url.url);
    const answered = messages.filter((message) => message.role === 'tool').length;
    const next = CALLS[answered];
    const message = next
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${answered + 1}`,
              type: 'function',
              function: { name: next.name, arguments: JSON.stringify(next.arguments) },
            },
          ],
        }
      : { role: 'assistant', content: 'The echo and the image came back.' };
    sendJson(response, 200, {
      id: 'chatcmpl-echo',
      object: 'chat.completion',
      model: 'echoer',
      choices: [{ index: 0, message, finish_reason: next ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
    });
  });
  return Object.assign(server, { imagesShown });
}

/** The demo org with the agent courier, whose model is the loopback one; it has no tools yet. */
function courierOrg(lemming: LemmingHarness, modelUrl: string): string {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const modelsFile = join(org, 'lemming/config/models.json');
  const models = JSON.parse(readFileSync(modelsFile, 'utf8')) as object;
  writeFileSync(
    modelsFile,
    JSON.stringify({
      ...models,
      echoer: {
        provider: 'vllm',
        model_name: 'echoer',
        stream: false,
        input: ['text', 'image'],
        provider_config: { base_url: `${modelUrl}/v1` },
      },
    }),
  );
  mkdirSync(join(org, 'agents/courier'), { recursive: true });
  writeFileSync(
    join(org, 'agents/courier/resume.json'),
    JSON.stringify({
      name: 'courier',
      title: 'Courier',
      short_description: 'Carries messages',
      instructions: 'You carry messages.',
      model: { key: 'echoer' },
      permissions: { read_outboxes: [], tools: [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    }),
  );
  return org;
}

test('a person adds a program with the form and another by pasting VS Code settings, grants two of its tools, and sees their calls, the text and the image, in the inspector', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(120_000);
  const model = await toolCallingModel();
  try {
    const org = courierOrg(lemming, model.url);
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    await lemming.showView('Tool Store');
    const { page } = lemming;

    // The form: it opens on its first field, says what is wrong where it is wrong, and Escape closes it.
    await page.getByRole('button', { name: 'Add a server…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await expect(dialog.getByLabel('Name', { exact: true })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Add a server…' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('everything');
    await expect(dialog.getByRole('radio', { name: 'A program on this computer' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Add this server' }).click();
    await expect(dialog.getByRole('alert', { name: 'Problems with Program to start' })).toContainText(
      'give the program to start',
    );
    await dialog.getByLabel('Program to start', { exact: true }).fill(process.execPath);
    await dialog.getByLabel('What to give it (one per line)', { exact: true }).fill(`${EVERYTHING}\nstdio`);
    await dialog.getByRole('button', { name: 'Add a secret value' }).click();
    await dialog.getByLabel('Name', { exact: true }).nth(1).fill('EVERYTHING_TOKEN');
    await dialog.getByLabel('Value', { exact: true }).fill(TOKEN);
    await expect(dialog).toHaveScreenshot('mcp-server-dialog-light.png', {
      maxDiffPixelRatio: 0.02,
      mask: [
        dialog.getByLabel('Program to start', { exact: true }),
        dialog.getByLabel('What to give it (one per line)', { exact: true }),
      ],
    });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(dialog).toHaveScreenshot('mcp-server-dialog-dark.png', {
      maxDiffPixelRatio: 0.02,
      mask: [
        dialog.getByLabel('Program to start', { exact: true }),
        dialog.getByLabel('What to give it (one per line)', { exact: true }),
      ],
    });
    await page.screenshot({ path: testInfo.outputPath('mcp-server-dialog-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Add this server' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('listitem', { name: 'everything' });
    await expect(card).toContainText('Running');
    await expect(card.getByRole('list', { name: 'Tools of everything' })).toContainText('Echoes back');

    const config = readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8');
    expect(JSON.parse(config).mcpServers.everything.env).toEqual({
      EVERYTHING_TOKEN: '${secrets.MCP_EVERYTHING_EVERYTHING_TOKEN}',
    });
    expect(config).not.toContain(TOKEN);
    // The renderer sent the value once; no answer ever carries it back.
    expect(JSON.stringify(lemming.calls.map((call) => call.response))).not.toContain(TOKEN);

    // Changing it: the saved value is kept when its field is left empty.
    await card.getByRole('button', { name: 'Change everything…' }).click();
    const change = page.getByRole('dialog', { name: 'Change everything' });
    await expect(change.getByLabel('Name', { exact: true }).first()).toBeDisabled();
    await expect(change).toContainText('Saved. Leave empty to keep it.');
    await change.getByRole('button', { name: 'Add a secret value' }).click();
    await change.getByLabel('Name', { exact: true }).last().fill('REGION');
    await change.getByLabel('Value', { exact: true }).last().fill('eu-west');
    await change.getByRole('button', { name: 'Save changes' }).click();
    await expect(change).toBeHidden();
    await expect(card).toContainText('Running');
    expect(
      JSON.parse(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8')).mcpServers.everything.env,
    ).toEqual({
      EVERYTHING_TOKEN: '${secrets.MCP_EVERYTHING_EVERYTHING_TOKEN}',
      REGION: '${secrets.MCP_EVERYTHING_REGION}',
    });

    // Pasted settings, in VS Code's spelling.
    await page.getByRole('button', { name: 'Add a server…' }).click();
    await dialog.getByRole('tab', { name: 'Paste settings' }).click();
    const settings = dialog.getByLabel('Settings', { exact: true });
    await expect(settings).toBeFocused();
    // A file the person picks fills the box, to be looked at before anything is added.
    await dialog.getByLabel('Settings file').setInputFiles({
      name: 'mcp.json',
      mimeType: 'application/json',
      buffer: Buffer.from('{"servers": {"second": }}'),
    });
    await expect(settings).toHaveValue('{"servers": {"second": }}');
    await dialog.getByRole('button', { name: 'Add these servers' }).click();
    await expect(dialog.getByRole('alert', { name: 'Problems with Settings' })).toContainText(
      'line 1, column',
    );
    // VS Code asks for the value of an input as the server starts; here it is asked for once it is added.
    await settings.fill(
      JSON.stringify(
        {
          inputs: [
            {
              type: 'promptString',
              id: 'second-key',
              description: 'Key of the second server',
              password: true,
            },
          ],
          servers: {
            second: {
              type: 'stdio',
              command: process.execPath,
              args: [EVERYTHING, 'stdio'],
              env: { SECOND_KEY: '${input:second-key}' },
            },
          },
        },
        null,
        2,
      ),
    );
    await page.screenshot({ path: testInfo.outputPath('mcp-server-dialog-paste.png') });
    const scan = await new AxeBuilder({ page }).include('.mcp-server-dialog').analyze();
    expect(
      scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
    ).toEqual([]);
    await dialog.getByRole('button', { name: 'Add these servers' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Added second.');
    const toGive = dialog.getByRole('region', { name: 'Values to give' });
    await expect(toGive).toContainText('second: Key of the second server');
    // What was added is not added again by a second click.
    await expect(dialog.getByRole('button', { name: 'Add these servers' })).toBeDisabled();
    await toGive.getByRole('textbox', { name: 'MCP_SECOND_SECOND_KEY' }).fill(SECOND_KEY);
    await toGive.getByRole('button', { name: 'Save MCP_SECOND_SECOND_KEY' }).click();
    await expect(toGive).toContainText('is set');
    await page.screenshot({ path: testInfo.outputPath('mcp-server-dialog-values-to-give.png') });
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
    expect(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8')).not.toContain(SECOND_KEY);
    const second = page.getByRole('listitem', { name: 'second' });
    await expect(second).toContainText('Running');
    await page.screenshot({ path: testInfo.outputPath('tool-store-added.png'), fullPage: true });

    // Removing asks first.
    await second.getByRole('button', { name: 'Remove second…' }).click();
    const asking = page.getByRole('dialog', { name: 'Remove second?' });
    await expect(asking).toContainText('Agents lose its tools');
    await asking.getByRole('button', { name: 'Remove second' }).click();
    await expect(second).toHaveCount(0);
    expect(
      Object.keys(JSON.parse(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8')).mcpServers),
    ).toEqual(['everything']);

    // The person grants the echo and the tiny image tools to courier in its permissions editor.
    await lemming.showView('Org');
    await page.getByRole('button', { name: 'Open agent courier', exact: true }).click();
    for (const { name } of CALLS) {
      const grant = page.locator(`[data-tool="${name}"]`).getByRole('switch');
      await grant.click();
      await expect(grant).toBeChecked();
      await expect
        .poll(
          () => JSON.parse(readFileSync(join(org, 'agents/courier/resume.json'), 'utf8')).permissions.tools,
        )
        .toContain(name);
    }

    // A tick: the model calls each tool, which asks first (the person has not trusted the server's hints).
    await page.getByRole('button', { name: 'Step one tick' }).click();
    // The card names each tool by the title its server gives it (the id is under "Advanced").
    for (const { title } of CALLS) {
      const approval = page.getByRole('alertdialog', { name: `courier wants to use ${title}` });
      await approval.getByRole('button', { name: 'Allow once' }).click();
      await expect(approval).toBeHidden();
    }
    // The model takes images: it was shown the tool's PNG.
    await expect.poll(() => model.imagesShown.length).toBeGreaterThan(0);
    expect(model.imagesShown[0]).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);

    await lemming.showView('Timeline');
    await page.getByRole('combobox', { name: 'Agent' }).selectOption('courier');
    const row = page.locator('.timeline-row', { hasText: 'Echo (everything)' }).first();
    await row.click();
    await page.getByRole('button', { name: 'Open this turn in the inspector' }).click();
    await expect(page.getByRole('heading', { name: /^Turn of courier at tick/, level: 2 })).toBeVisible();
    const call = page.getByRole('list', { name: 'Steps' }).getByTestId('tool-call').first();
    await expect(call).toContainText('Echo Tool');
    await expect(call).toContainText('mcp__everything__echo');
    await expect(call).toHaveAttribute('data-outcome', 'success');
    await expect(call.getByTestId('tool-result')).toContainText(`Echo: ${MESSAGE}`);
    await call.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('inspector-echo.png') });

    // The image the server answered with is shown with its call, as the picture it is.
    const imageCall = page
      .getByRole('list', { name: 'Steps' })
      .getByTestId('tool-call')
      .filter({ hasText: 'mcp__everything__get-tiny-image' });
    await expect(imageCall).toHaveAttribute('data-outcome', 'success');
    const image = imageCall
      .getByTestId('tool-attachment')
      .getByRole('img', { name: /^Image from the tool \(image\/png/ });
    await image.scrollIntoViewIfNeeded();
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath('inspector-image.png') });
  } finally {
    await model.close();
  }
});
