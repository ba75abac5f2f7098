import AxeBuilder from '@axe-core/playwright';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { orgKeyOf, orgTrust } from '../../engine/trust/org-trust';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

/** A TCP server on 127.0.0.1 that counts every connection made to it (HTTP or not) and answers none. */
async function connectionCounter() {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A copy of the demo org that would start a program (an MCP server that only writes a marker file when
 * it starts) and contact a model server on this computer with a stored secret.
 */
function orgFromElsewhere(lemming: LemmingHarness, modelUrl: string) {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const marker = join(org, '..', 'marker-server-started');
  const serverScript = join(org, '..', 'marker-server.mjs');
  writeFileSync(
    serverScript,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(process.argv[2], 'started');\nsetTimeout(() => {}, 60_000);\n`,
  );
  writeMcpServer(org, [serverScript, marker]);
  const modelsFile = join(org, 'lemming/config/models.json');
  const models = JSON.parse(readFileSync(modelsFile, 'utf8'));
  models.helper = {
    provider: 'openai-compatible',
    model_name: 'helper-mini',
    provider_config: { base_url: modelUrl, api_key_secret: 'HELPER_API_KEY', max_retries: 0 },
  };
  writeFileSync(modelsFile, JSON.stringify(models, null, 2));
  return { org, marker, serverScript };
}

function writeMcpServer(org: string, args: string[]) {
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({ mcpServers: { files: { command: process.execPath, args } } }, null, 2),
  );
}

const trustScreen = (lemming: LemmingHarness) =>
  lemming.page.getByRole('region', { name: 'Do you trust this org?' });

test('an org from elsewhere opens behind the trust screen: nothing starts and nothing is contacted, even while it is looked at without running', async ({
  lemming,
}, testInfo) => {
  const model = await connectionCounter();
  try {
    const { org, marker, serverScript } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.openOrgAt(org);

    const screen = trustScreen(lemming);
    await expect(screen).toBeVisible();
    const programs = screen.getByRole('region', { name: 'Programs it would start' });
    await expect(programs).toContainText(`${process.execPath} ${serverScript} ${marker}`);
    await expect(programs).toContainText(/for the (MCP|tool) server “files”/);
    const places = screen.getByRole('region', {
      name: 'Places on the internet or your network it would contact',
    });
    await expect(places).toContainText(model.url);
    await expect(places).toContainText('on this computer');
    await expect(places).toContainText('for the model “helper”');
    const secret = screen.getByRole('checkbox', { name: 'Let this org use the secret HELPER_API_KEY' });
    await expect(secret).not.toBeChecked();
    // File and field names wait behind Advanced.
    await expect(screen.getByText('lemming/config/mcp.json (mcpServers.files.command)')).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main views' })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath('trust-screen.png'), fullPage: true });
    expect(existsSync(marker)).toBe(false);
    expect(model.connections()).toBe(0);

    await screen.getByRole('button', { name: 'Open without running' }).click();
    await expect(screen).toHaveCount(0);
    const runBar = page.getByRole('region', { name: 'Run controls' });
    await expect(runBar.getByRole('status')).toContainText(
      'Nothing in this org runs until you trust it: no program starts and nothing is sent.',
    );
    await expect(runBar.getByRole('button', { name: 'Start' })).toBeDisabled();
    await expect(runBar.getByRole('button', { name: 'Step one tick' })).toBeDisabled();

    // Everything can be looked at: agents, the timeline, the Tool Store (its MCP server not started).
    await expect(page.getByRole('button', { name: 'Open agent writer', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Open agent writer', exact: true }).click();
    await expect(page.locator('.tool-row').first()).toBeVisible();
    await lemming.showView('Timeline');
    await expect(page.getByText('Nothing has happened yet')).toBeVisible();
    await lemming.showView('Tool Store');
    const files = page.getByRole('listitem', { name: 'files', exact: true });
    await expect(files).toContainText('not started: this org is not trusted yet', { ignoreCase: true });
    await page.screenshot({ path: testInfo.outputPath('tool-store-untrusted.png'), fullPage: true });
    await lemming.showView('Org');
    await expect(page.locator('.react-flow__node')).toHaveCount(4);
    // Anything started would have had these seconds to write its marker or connect.
    await page.waitForTimeout(1500);
    expect(existsSync(marker)).toBe(false);
    expect(model.connections()).toBe(0);

    // The run bar's button brings the screen back.
    await runBar.getByRole('button', { name: 'Review trust…' }).click();
    await expect(trustScreen(lemming)).toBeVisible();
  } finally {
    await model.close();
  }
});

test('Trust with nothing ticked trusts the org and grants it no secret; its run bar is free', async ({
  lemming,
}) => {
  const model = await connectionCounter();
  try {
    const { org } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.openOrgAt(org);
    await trustScreen(lemming).getByRole('button', { name: 'Trust this org' }).click();

    await expect(trustScreen(lemming)).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Main views' })).toBeVisible();
    const runBar = page.getByRole('region', { name: 'Run controls' });
    await expect(runBar.getByRole('button', { name: 'Start' })).toBeEnabled();
    await expect(runBar.getByText('Not trusted yet')).toHaveCount(0);
    const record = lemming.trust.record(orgKeyOf(org));
    expect(record.trusted).not.toBeNull();
    expect(record.grants).toEqual({ secrets: [], environment: [] });

    await lemming.showView('Settings');
    const trust = page.getByRole('region', { name: 'Trust', exact: true });
    await expect(trust).toContainText('Trusted');
    await trust.getByRole('button', { name: 'Stop trusting this org…' }).click();
    await page
      .getByRole('dialog', { name: 'Stop trusting this org?' })
      .getByRole('button', {
        name: 'Stop trusting it',
      })
      .click();
    await expect(trust).toContainText('Not trusted');
    await expect(runBar.getByRole('button', { name: 'Start' })).toBeDisabled();
    expect(lemming.trust.record(orgKeyOf(org)).trusted).toBeNull();
  } finally {
    await model.close();
  }
});

test('a ticked secret is granted with the trust; reviewing the trust later can take it back', async ({
  lemming,
}) => {
  const model = await connectionCounter();
  try {
    const { org } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.openOrgAt(org);
    const screen = trustScreen(lemming);
    const secret = 'Let this org use the secret HELPER_API_KEY';
    await screen.getByRole('checkbox', { name: secret }).check();
    await screen.getByRole('button', { name: 'Trust this org' }).click();
    await expect(screen).toHaveCount(0);
    expect(lemming.trust.record(orgKeyOf(org)).grants.secrets).toEqual(['HELPER_API_KEY']);

    await lemming.showView('Settings');
    await page.getByRole('button', { name: 'Review what it may do…' }).click();
    const review = page.getByRole('region', { name: 'What this org may do' });
    await expect(review.getByRole('checkbox', { name: secret })).toBeChecked();
    await review.getByRole('checkbox', { name: secret }).uncheck();
    await review.getByRole('button', { name: 'Keep trusting it' }).click();
    await expect(review).toHaveCount(0);
    const record = lemming.trust.record(orgKeyOf(org));
    expect(record.grants.secrets).toEqual([]);
    expect(record.trusted).not.toBeNull();
  } finally {
    await model.close();
  }
});

test('an org whose program changed after it was trusted shows what changed, and runs nothing until trusted again', async ({
  lemming,
}, testInfo) => {
  const model = await connectionCounter();
  try {
    const { org, marker, serverScript } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.openOrgAt(org);
    await trustScreen(lemming).getByRole('button', { name: 'Trust this org' }).click();
    await expect(page.getByRole('navigation', { name: 'Main views' })).toBeVisible();

    writeMcpServer(org, [serverScript, marker, '--everything']);
    await lemming.openOrgAt(org);
    const screen = page.getByRole('region', { name: 'This org changed since you trusted it' });
    await expect(screen).toBeVisible();
    const changes = screen.getByRole('region', { name: 'What changed' });
    await expect(changes.getByRole('list', { name: 'New' })).toContainText(
      `${process.execPath} ${serverScript} ${marker} --everything`,
    );
    await expect(changes.getByRole('list', { name: 'No longer there' })).toContainText(
      `${process.execPath} ${serverScript} ${marker}`,
    );
    await page.screenshot({ path: testInfo.outputPath('trust-screen-changed.png'), fullPage: true });

    await screen.getByRole('button', { name: 'Trust this org' }).click();
    await expect(screen).toHaveCount(0);
    expect(lemming.trust.record(orgKeyOf(org)).trusted?.items).toContainEqual(
      expect.objectContaining({ subject: `${process.execPath} ${serverScript} ${marker} --everything` }),
    );
  } finally {
    await model.close();
  }
});

test('an org edited elsewhere while it is open asks again when the person comes back; what they were doing stays', async ({
  lemming,
}) => {
  const model = await connectionCounter();
  try {
    const { org, marker, serverScript } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    await lemming.showView('Settings');
    const newSecret = page.getByLabel('Secret name');
    await page.getByText('Add a secret', { exact: true }).click();
    await newSecret.fill('HALF_TYPED');

    writeMcpServer(org, [serverScript, marker, '--edited-elsewhere']);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    const screen = page.getByRole('region', { name: 'This org changed since you trusted it' });
    await expect(screen.getByRole('list', { name: 'New' })).toContainText('--edited-elsewhere');

    await screen.getByRole('button', { name: 'Open without running' }).click();
    await expect(newSecret).toHaveValue('HALF_TYPED');
    await expect(page.getByRole('region', { name: 'Run controls' }).getByRole('status')).toContainText(
      'Nothing in this org runs until you trust it',
    );
    await expect(page.getByRole('region', { name: 'Trust', exact: true })).toContainText(
      'Changed since you trusted it',
    );
  } finally {
    await model.close();
  }
});

test('a run refused because the org changed since the run bar was drawn answers with the trust screen, not an error', async ({
  lemming,
}) => {
  const model = await connectionCounter();
  try {
    const { org, marker, serverScript } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    const runBar = page.getByRole('region', { name: 'Run controls' });
    await expect(runBar.getByRole('button', { name: 'Step one tick' })).toBeEnabled();

    // The app reads its trust again soon after the file changes; held here, the Step comes first.
    const release = lemming.holdCalls('trust.state');
    const changedMarker = `${marker}-by-the-changed-server`;
    writeMcpServer(org, [serverScript, changedMarker]);
    await runBar.getByRole('button', { name: 'Step one tick' }).click();
    await expect.poll(() => lemming.calls.filter((call) => call.channel === 'run.step').length).toBe(1);
    release();
    const screen = page.getByRole('region', { name: 'This org changed since you trusted it' });
    await expect(screen.getByRole('list', { name: 'New' })).toContainText(changedMarker);
    await expect(page.locator('.toast-error')).toHaveCount(0);
    expect(existsSync(changedMarker)).toBe(false);
  } finally {
    await model.close();
  }
});

test('an org that changes while its trust screen is shown is not trusted; the new list is shown', async ({
  lemming,
}) => {
  const model = await connectionCounter();
  try {
    const { org, marker, serverScript } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.openOrgAt(org);
    const screen = trustScreen(lemming);
    await expect(screen).toBeVisible();

    writeMcpServer(org, [serverScript, marker, '--sneaky']);
    await screen.getByRole('button', { name: 'Trust this org' }).click();
    await expect(screen.getByRole('status')).toContainText('This org changed while you were looking at it');
    await expect(screen.getByRole('region', { name: 'Programs it would start' })).toContainText('--sneaky');
    expect(lemming.trust.record(orgKeyOf(org)).trusted).toBeNull();
    await expect(page.getByRole('navigation', { name: 'Main views' })).toHaveCount(0);
  } finally {
    await model.close();
  }
});

test('Settings → API keys and secrets: “This org may use it” grants and takes back a secret for the open org', async ({
  lemming,
}, testInfo) => {
  const model = await connectionCounter();
  try {
    const { org } = orgFromElsewhere(lemming, model.url);
    const { page } = lemming;
    await lemming.trustAsIs(org);
    await lemming.trust.grant(orgKeyOf(org), 'secrets', 'HELPER_API_KEY', false);
    await lemming.openOrgAt(org);
    await lemming.showView('Settings');

    const row = page.getByRole('listitem', { name: 'HELPER_API_KEY' });
    const mayUse = row.getByRole('checkbox', { name: 'This org may use it' });
    await expect(mayUse).not.toBeChecked();
    await mayUse.check();
    await expect(mayUse).toBeChecked();
    await expect.poll(() => lemming.trust.record(orgKeyOf(org)).grants.secrets).toEqual(['HELPER_API_KEY']);
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('settings-secret-granted.png') });

    await mayUse.uncheck();
    await expect(mayUse).not.toBeChecked();
    await expect.poll(() => lemming.trust.record(orgKeyOf(org)).grants.secrets).toEqual([]);
    // Taking a secret back leaves the trust itself as it was.
    expect(lemming.trust.record(orgKeyOf(org)).trusted).not.toBeNull();
  } finally {
    await model.close();
  }
});

test('the demo org needs no trust: it opens straight to its agents, and Settings says so', async ({
  lemming,
}) => {
  const { page } = lemming;
  await lemming.openOrgAt(lemming.copyOfFolder(DEMO_ORG));
  await expect(page.getByRole('navigation', { name: 'Main views' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Do you trust this org?' })).toHaveCount(0);
  await lemming.showView('Settings');
  await expect(page.getByRole('region', { name: 'Trust', exact: true })).toContainText('Needs no trust');
});

/** An org as a person may get it from a colleague: MCP servers, models on the internet, this computer and the network. */
function colleaguesOrg(lemming: LemmingHarness): string {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: {
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'] },
        github: { command: 'github-mcp', env: { GITHUB_TOKEN: '${secrets.GITHUB_TOKEN}' } },
        tickets: {
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer ${secrets.TICKETS_KEY}' },
        },
      },
    }),
  );
  const modelsFile = join(org, 'lemming/config/models.json');
  const models = JSON.parse(readFileSync(modelsFile, 'utf8'));
  Object.assign(models, {
    gpt: {
      provider: 'openai',
      model_name: 'gpt-4o-mini',
      provider_config: { base_url: 'https://api.openai.com/v1', api_key_secret: 'OPENAI_API_KEY' },
    },
    local: {
      provider: 'ollama',
      model_name: 'llama3.2',
      provider_config: { base_url: 'http://127.0.0.1:11434' },
    },
    gateway: {
      provider: 'openai-compatible',
      model_name: 'team-model',
      provider_config: { base_url: 'http://192.168.1.20:8000/v1', api_key_env: 'GATEWAY_TOKEN' },
    },
    claude: { provider: 'cli', model_name: 'claude', provider_config: { command: ['claude', '-p'] } },
  });
  writeFileSync(modelsFile, JSON.stringify(models, null, 2));
  return org;
}

/** Trusts the org as it is now, on a fixed day (so the screen's date never moves), granting nothing. */
async function trustedOn(lemming: LemmingHarness, org: string, day: string): Promise<void> {
  const now = await orgTrust(org, lemming.trust);
  const recorded = await lemming.trust.trust(now.orgPath, now.fingerprint, now.reach, {}, new Date(day));
  if (!recorded.ok) throw new Error(recorded.error);
}

/** What axe finds serious or critical on the page, by rule and where. */
async function seriousViolations(lemming: LemmingHarness) {
  const results = await new AxeBuilder({ page: lemming.page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.target.join(' ')) }));
}

const SCREENSHOT = {
  animations: 'disabled',
  caret: 'hide',
  maxDiffPixelRatio: 0.002,
} as const;

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} colours`, () => {
    test.use({ viewport: { width: 1280, height: 1200 }, colorScheme });

    test(`the trust screen looks as it did (${colorScheme})`, async ({ lemming }) => {
      const org = colleaguesOrg(lemming);
      await lemming.openOrgAt(org);
      const { page } = lemming;
      await page.evaluate(() =>
        window.lemming.secrets.set({ name: 'OPENAI_API_KEY', value: 'sk-test-stored' }),
      );
      await expect(trustScreen(lemming).getByText('Stored on this computer')).toBeVisible();
      await expect(page).toHaveScreenshot(`trust-screen-${colorScheme}.png`, {
        ...SCREENSHOT,
        mask: [page.locator('.org-path'), page.locator('.activity')],
      });
      expect(await seriousViolations(lemming)).toEqual([]);
    });

    test(`the trust screen of a changed org looks as it did (${colorScheme})`, async ({ lemming }) => {
      const org = colleaguesOrg(lemming);
      await trustedOn(lemming, org, '2026-03-02T10:00:00Z');
      const mcpFile = join(org, 'lemming/config/mcp.json');
      writeFileSync(
        mcpFile,
        readFileSync(mcpFile, 'utf8')
          .replace('/home/me/notes', '/home/me')
          .replace('https://mcp.example.com/mcp', 'https://mcp.example.net/mcp'),
      );
      await lemming.openOrgAt(org);
      const { page } = lemming;
      const screen = page.getByRole('region', { name: 'This org changed since you trusted it' });
      await expect(screen.getByRole('list', { name: 'New' })).toContainText('/home/me');
      await expect(page).toHaveScreenshot(`trust-screen-changed-${colorScheme}.png`, {
        ...SCREENSHOT,
        mask: [page.locator('.org-path'), page.locator('.activity')],
      });
      expect(await seriousViolations(lemming)).toEqual([]);
    });
  });
}
