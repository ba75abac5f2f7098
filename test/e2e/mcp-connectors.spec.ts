import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ORG, REPO_ROOT, expect, test } from '../harness/lemming-fixture';

const everything = {
  command: process.execPath,
  args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

test('the Tool Store shows MCP servers as cards: running with their tools, or failed with the error; their tools toggle per agent', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({ mcpServers: { everything, notes: { command: 'no-such-notes-server' } } }, null, 2),
  );
  await lemming.trustAsIs(org);
  const { page } = lemming;
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Tool Store');

  const running = page.getByRole('listitem', { name: 'everything' });
  await expect(running).toContainText('Running');
  await expect(running).toContainText('with your rights');
  const tools = running.getByRole('list', { name: 'Tools of everything' });
  await expect(tools).toContainText('Echoes back the input string');
  await expect(tools).toContainText('says it only reads');
  // What it says counts only if the person says so: off until they do.
  await expect(
    running.getByRole('switch', { name: "Trust this server's hints about which tools only read" }),
  ).not.toBeChecked();
  await tools.getByText('Advanced: name and input').first().click();
  await expect(tools).toContainText('mcp__everything__echo');

  const failed = page.getByRole('listitem', { name: 'notes' });
  await expect(failed).toContainText('Failed');
  await expect(failed).toContainText('no-such-notes-server was not found');
  await page.screenshot({ path: testInfo.outputPath('tool-store-mcp.png'), fullPage: true });
  await expect(running).toHaveScreenshot('mcp-card-running.png', { maxDiffPixelRatio: 0.02 });
  await expect(failed).toHaveScreenshot('mcp-card-failed.png', { maxDiffPixelRatio: 0.02 });

  // It may not ask the agents' models until the person lets it; turning that on starts it again, told so.
  const sampling = running.getByRole('switch', { name: 'Let this server ask your models' });
  await expect(sampling).not.toBeChecked();
  await expect(running).toContainText(
    "When one of your agents uses this server, the server may ask that agent's model a question. The agent pays for it.",
  );
  await expect(tools).not.toContainText('trigger-sampling-request');
  await sampling.click();
  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications).toContainText('everything may ask your models');
  await notifications.getByRole('button', { name: 'Dismiss: everything may ask your models' }).click();
  await expect(sampling).toBeChecked();
  await expect(tools).toContainText('trigger-sampling-request');
  await expect(running).toContainText('On: it may ask up to 3 questions during each call of its tools');
  const samplingSwitch = running.locator('.mcp-sampling');
  await samplingSwitch.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('tool-store-mcp-sampling.png') });
  await expect(samplingSwitch).toHaveScreenshot('mcp-sampling-allowed.png', { maxDiffPixelRatio: 0.02 });

  // Its tools are toggled per agent like any other tool, and the resume says so.
  await page.getByLabel('Show tools for agent').selectOption('writer');
  // The grants list the app's own tools apart from each server's.
  const echo = page
    .getByRole('list', { name: 'From everything' })
    .getByRole('listitem')
    .filter({ hasText: 'mcp__everything__echo' });
  await echo.getByRole('checkbox', { name: 'Enabled for writer' }).check();
  await expect(running).toContainText('Enabled for writer');
});

test('"Import from Claude Desktop" adds the servers Claude Desktop uses; their values go to the secret store, not mcp.json', async ({
  lemming,
}, testInfo) => {
  const home = mkdtempSync(join(tmpdir(), 'lemming-home-'));
  mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: { everything: { ...everything, env: { EVERYTHING_TOKEN: 'tok-31337-secret' } } },
    }),
  );
  const realHome = process.env.HOME;
  process.env.HOME = home;
  try {
    const org = lemming.copyOfFolder(DEMO_ORG);
    const { page } = lemming;
    await lemming.openOrgAt(org);
    await lemming.showView('Tool Store');
    await expect(page.getByRole('listitem', { name: 'everything' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Import from Claude Desktop' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added one server: everything.' })).toContainText(
      'One value was saved in the secret store.',
    );
    await expect(page.getByRole('listitem', { name: 'everything' })).toContainText('Running');
    const importRow = page.getByRole('button', { name: 'Import from Cursor' }).locator('..');
    await importRow.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('tool-store-mcp-imported.png') });

    const config = readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8');
    expect(config).toContain('everything');
    expect(config).not.toContain('tok-31337-secret');
    expect(JSON.stringify(lemming.calls)).not.toContain('tok-31337-secret');

    // A second import finds the server already there and says so.
    await page.getByRole('button', { name: 'Import from Claude Desktop' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'No server was added.' })).toContainText(
      'everything',
    );

    // A stored key is never replaced unasked: with the server gone from mcp.json, importing it again with
    // another value asks first.
    writeFileSync(join(org, 'lemming/config/mcp.json'), JSON.stringify({ mcpServers: {} }));
    writeFileSync(
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: { everything: { ...everything, env: { EVERYTHING_TOKEN: 'tok-42-replacement' } } },
      }),
    );
    await page.getByRole('button', { name: 'Import from Claude Desktop' }).click();
    const asking = page.getByRole('dialog', { name: 'Replace saved keys?' });
    await expect(asking).toContainText('MCP_EVERYTHING_EVERYTHING_TOKEN');
    await asking.getByRole('button', { name: 'Replace them and import' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added one server: everything.' })).toBeVisible();
  } finally {
    process.env.HOME = realHome;
    rmSync(home, { recursive: true, force: true });
  }
});
