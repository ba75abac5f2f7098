import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT, UPSTREAM_FIXTURES, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

// Issue 16, "Plain words": the tool verdicts and fixes say in plain words what stops a tool and what
// would let it through; the files, fields and tool ids behind them are there too, under "Advanced".

const EXAMPLE_ORG = join(UPSTREAM_FIXTURES, 'example-org');

const everything = {
  command: process.execPath,
  args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

/**
 * The text a person sees in `scope` without opening anything: every rendered text node, minus what sits
 * inside a closed <details> (its <summary> excepted) or is not displayed at all. One line per element.
 */
async function textOutsideAdvanced(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    const hidden = (node: Node): boolean => {
      for (let element = node.parentElement; element && element !== root.parentElement;) {
        const details = element.closest('details');
        if (!details || !root.contains(details)) break;
        const summary = details.querySelector(':scope > summary');
        if (!details.open && !(summary && summary.contains(node))) return true;
        element = details.parentElement;
      }
      const parent = node.parentElement;
      return !parent || !parent.checkVisibility({ visibilityProperty: true });
    };
    const lines: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (text && !hidden(node) && node.parentElement?.tagName !== 'OPTION') lines.push(text);
    }
    return lines;
  });
}

/** The text as rendered (a closed <details> shows only its summary), on one line. */
const shownText = async (scope: Locator): Promise<string> => (await scope.innerText()).replace(/\s+/g, ' ');

/** What a newcomer cannot read: config files and fields, tool ids in snake_case, grant groups, sandbox names. */
function jargonIn(lines: readonly string[], names: readonly string[]): string[] {
  const allowed = new Set(names);
  const patterns = [
    /lemming\/config|\.json\b|\.ya?ml\b/,
    /permissions\.|allowed_tool_kinds|tools\.deny|network\.enabled|tools_profile/,
    /\bgroup:[a-z]/,
    /bubblewrap|bwrap|\.\.\//,
  ];
  return lines.flatMap((line) => {
    const snake = (line.match(/\b[a-z][a-z0-9]*(?:__?[a-z0-9-]+)+\b/g) ?? []).filter(
      (word) => !allowed.has(word),
    );
    return patterns.some((pattern) => pattern.test(line)) || snake.length > 0 ? [line] : [];
  });
}

async function openExampleOrg(lemming: LemmingHarness): Promise<{ org: string; agents: string[] }> {
  const org = lemming.copyOfFolder(EXAMPLE_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({ mcpServers: { everything } }, null, 2),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await expect(lemming.page.getByRole('navigation', { name: 'Main views' })).toBeVisible();
  const agents = readdirSync(join(org, 'agents'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  return { org, agents };
}

test('the agent Tools panel and the Tool Store of LeMMing’s example org speak plainly; the files and fields are under Advanced', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(120_000);
  const { page } = lemming;
  const { agents } = await openExampleOrg(lemming);

  for (const agent of ['manager', 'echo_cli', 'log_summarizer']) {
    await lemming.showView('Org');
    await page.getByRole('button', { name: `Open agent ${agent}`, exact: true }).click();
    const panel = page.locator('section.tool-toggles');
    await expect(panel.locator('[data-tool="http_request"]')).toBeVisible();
    expect(jargonIn(await textOutsideAdvanced(panel), agents), `Tools panel of ${agent}`).toEqual([]);
  }

  // Web requests on the last agent's page: why and the fix in plain words; the resolver's technical words under Advanced.
  const web = page.locator('[data-tool="http_request"]');
  await expect(web).toBeVisible();
  const seen = await shownText(web);
  expect(seen).toContain('it is switched off for this agent; internet access is off for this org');
  expect(seen).toContain(
    'To fix: switch “Make a web request” on for log_summarizer, then turn internet access on for the org',
  );
  expect(seen).not.toContain('network.enabled');
  await web.getByText('Advanced', { exact: true }).click();
  const opened = await shownText(web);
  expect(opened).toContain(
    'network access is off for this org (network.enabled in lemming/config/policy.json)',
  );
  expect(opened).toContain(
    'Fix: add "http_request" to log_summarizer\'s permissions.tools, then set network.enabled to true in lemming/config/policy.json',
  );
  expect(opened).toContain('http_request');
  await page.screenshot({ path: testInfo.outputPath('agent-tools-plain.png'), fullPage: true });

  await lemming.showView('Tool Store');
  const store = page.locator('section.tool-store');
  await expect(store.getByRole('listitem', { name: 'everything' })).toContainText('Running');
  await expect(store.getByRole('listitem', { name: 'Web requests' })).toBeVisible();
  for (const agent of ['manager', 'ui_copy_editor']) {
    await page.getByLabel('Show tools for agent').selectOption(agent);
    await page.getByLabel('Approval settings for agent').selectOption(agent);
    expect(jargonIn(await textOutsideAdvanced(store), agents), `Tool Store for ${agent}`).toEqual([]);
  }
  const card = store.getByRole('listitem', { name: 'Web requests' });
  const cardText = await shownText(card);
  expect(cardText).toContain(
    'Why: internet access is off for this org. To fix: turn internet access on for the org',
  );
  await card.getByText('Advanced', { exact: true }).click();
  const cardOpened = await shownText(card);
  expect(cardOpened).toContain('Fix: set network.enabled to true in lemming/config/policy.json');
  expect(cardOpened).toContain('network.enabled is true (lemming/config/policy.json)');
  await page.screenshot({ path: testInfo.outputPath('tool-store-plain.png'), fullPage: true });

  // Its settings drawer names the file it writes only under Advanced.
  await card.getByRole('button', { name: 'Set up Web requests' }).click();
  const drawer = page.getByRole('dialog', { name: 'Web requests settings' });
  await expect(drawer.getByLabel('Allow network access')).toBeVisible();
  expect(jargonIn(await textOutsideAdvanced(drawer), agents)).toEqual([]);
  await drawer.getByText('Advanced', { exact: true }).click();
  expect(await shownText(drawer)).toContain('Saved in lemming/config/policy.json as enabled, private_hosts.');
});

/** The labels of a form's visible fields, in order: each label's own words, not its field's. */
async function fieldLabels(form: Locator): Promise<string[]> {
  return form.evaluate((element) =>
    [...element.querySelectorAll('label')]
      .filter((label) => label.checkVisibility())
      .map((label) =>
        [...label.childNodes]
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent ?? '')
          .join('')
          .trim(),
      ),
  );
}

test('adding a model and changing a saved one is the same form, with the same words', async ({ lemming }) => {
  const { page } = lemming;
  await openExampleOrg(lemming);
  await lemming.showView('Settings');

  await page.getByText('Add a model', { exact: true }).click();
  const adding = await fieldLabels(page.getByRole('form', { name: 'Add a model' }));
  const card = page
    .getByRole('list', { name: 'Models' })
    .getByRole('listitem', { name: 'gpt-4o', exact: true });
  const changing = await fieldLabels(card.locator('form'));

  expect(adding).toEqual([
    'Where the model runs',
    'Server address',
    'API key',
    'Model',
    'Name your agents use for it',
  ]);
  expect(changing).toEqual(adding);
  await expect(card.getByLabel('Where the model runs')).toHaveValue('openai');
  await expect(card.getByLabel('Model', { exact: true })).toHaveValue('gpt-4o');
  await expect(card.getByRole('button', { name: 'Show the server’s models' })).toBeVisible();
});

/** Steps one tick; the manager's graph node then shows Failing with `reason` on it. Returns the node. */
async function stepUntilManagerFails(page: Page, reason: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Step one tick' }).click();
  const node = page.locator('[data-agent-node="manager"]');
  await expect(node).toContainText('Failing', { timeout: 30_000 });
  // The card's badge says "Failing"; its reason line says why, and its title holds the whole sentence.
  await expect(node.locator('.agent-node-reason')).toHaveAttribute('title', reason);
  await expect(node.locator('.agent-node-reason')).toHaveText(
    reason.replace(/^Its last turn \(tick \d+\) failed\. /, ''),
  );
  return node;
}

test('an agent of LeMMing’s example org that failed its first step says why in plain words on its node, its page and the agent table; the engine’s words are under Advanced', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(120_000);
  const { page } = lemming;
  const { agents } = await openExampleOrg(lemming);
  const plain =
    'The model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers.';
  const missingKey =
    'its model gpt-4o (OpenAI) has no API key yet: paste one in Settings, under Models and providers';
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByTestId('current-tick')).toHaveText('Next tick 2', { timeout: 30_000 });
  // The key is still missing: the node says what keeps the agent from running, not only that it failed.
  const node = page.locator('[data-agent-node="manager"]');
  await expect(node).toContainText('Will not run');
  // The card has room for a few words; its title and the table have the whole sentence.
  await expect(node.locator('.agent-node-reason')).toHaveText('No API key for gpt-4o');
  expect(await node.locator('.agent-node-reason').getAttribute('title')).toContain(missingKey);
  expect(jargonIn(await textOutsideAdvanced(node), agents), 'graph node').toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('failing-node-plain.png') });

  await page.getByRole('button', { name: 'Table' }).click();
  const row = page.locator('[data-agent-row="manager"]');
  await expect(row).toContainText(missingKey);
  expect(jargonIn(await textOutsideAdvanced(row), agents), 'agent table').toEqual([]);

  await page.getByRole('button', { name: 'manager', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Its last turn (tick 1) failed' });
  await expect(alert).toContainText(plain);
  expect(jargonIn(await textOutsideAdvanced(alert), agents), 'agent page').toEqual([]);
  expect(await shownText(alert)).not.toContain('llm_call_failed');
  await alert.getByText('Advanced', { exact: true }).click();
  await expect(alert.locator('code')).toContainText(
    'llm_call_failed: model "gpt-4o" (OpenAI) needs an API key',
  );
  await expect(alert.locator('code')).toContainText('provider_config.api_key_secret');
  await page.screenshot({ path: testInfo.outputPath('failing-agent-page-plain.png') });

  // The turn in the timeline: its rows say the same plain words; the stored event keeps the engine's.
  await alert.getByRole('button', { name: 'Show that turn in the timeline' }).click();
  const rows = page.getByRole('list', { name: 'Events' }).locator('.timeline-row');
  const failed = rows.filter({ hasText: 'needs an API key' });
  await expect(failed.first()).toBeVisible();
  for (const row of await failed.all()) {
    await expect(row).toContainText(
      'The model "gpt-4o" (OpenAI) needs an API key: paste it in Settings, under Models and providers.',
    );
    expect(jargonIn(await textOutsideAdvanced(row), agents), 'timeline row').toEqual([]);
  }
  await page.screenshot({ path: testInfo.outputPath('failing-turn-timeline-plain.png') });
});

test('a model server that refuses the key is said in plain words; its own answer is under Advanced', async ({
  lemming,
}) => {
  // A real HTTP server on loopback answering every call as a provider does for a wrong key.
  const refusing = createServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } }),
    );
  });
  await new Promise<void>((listening) => refusing.listen(0, '127.0.0.1', listening));
  try {
    const { port } = refusing.address() as AddressInfo;
    const org = lemming.copyOfFolder(EXAMPLE_ORG);
    const modelsFile = join(org, 'lemming/config/models.json');
    const models = JSON.parse(readFileSync(modelsFile, 'utf8'));
    models['gpt-4o'] = {
      provider: 'openai-compatible',
      model_name: 'gpt-4o',
      provider_config: { base_url: `http://127.0.0.1:${port}/v1`, max_retries: 0 },
    };
    writeFileSync(modelsFile, JSON.stringify(models, null, 2));
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    const { page } = lemming;
    const plain =
      'Its last turn (tick 1) failed. The model could not be reached (the server answered 401: the API key was refused).';
    await stepUntilManagerFails(page, plain);

    await page.getByRole('button', { name: 'Open agent manager', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Its last turn (tick 1) failed' });
    await expect(alert).toContainText(plain);
    expect(await shownText(alert)).not.toContain('Incorrect API key provided');
    await alert.getByText('Advanced', { exact: true }).click();
    await expect(alert.locator('code')).toContainText('llm_call_failed:');
    await expect(alert.locator('code')).toContainText('HTTP 401');
    await expect(alert.locator('code')).toContainText('Incorrect API key provided');
  } finally {
    await new Promise((closed) => refusing.close(closed));
  }
});
