import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, UPSTREAM_FIXTURES, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

// Issue 16, the controls that act through the engine: tool toggles for composed tools, fixes that ask
// before changing the whole org, and a path editor that shows what the sandbox would allow.

const WEATHER_TOOL = `name: fetch_weather
description: Today's weather for a city
parameters:
  city: {type: string, required: true}
request:
  method: GET
  url: "https://weather.example/v1/today?city={{params.city}}"
allowed_hosts: ["weather.example"]
`;

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const toolsOf = (org: string, agent: string): string[] =>
  readJson(join(org, 'agents', agent, 'resume.json')).permissions.tools;
const networkEnabled = (org: string): boolean => {
  const file = join(org, 'lemming', 'config', 'policy.json');
  return existsSync(file) && readJson(file).network?.enabled === true;
};

function demoWithWeather(lemming: LemmingHarness): string {
  const org = lemming.copyOfFolder(DEMO_ORG);
  mkdirSync(join(org, 'tools'));
  writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER_TOOL);
  return org;
}

/** Opens the org as its person would, who trusts it (these tests are about the controls, not trust). */
async function openOrg(lemming: LemmingHarness, org: string): Promise<void> {
  await lemming.trustAsIs(org);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
}

async function openAgent(lemming: LemmingHarness, org: string, agent: string): Promise<void> {
  await openOrg(lemming, org);
  await lemming.page.getByRole('button', { name: `Open agent ${agent}`, exact: true }).click();
  await expect(lemming.page.getByRole('heading', { name: new RegExp(`^${agent}`) })).toBeVisible();
}

test("a connector's tool is switched on for one agent on its page, and its fix asks before changing the whole org", async ({
  lemming,
}, testInfo) => {
  const org = demoWithWeather(lemming);
  await openAgent(lemming, org, 'writer');
  const { page } = lemming;

  const row = page.locator('[data-tool="fetch_weather"]');
  const toggle = row.getByRole('switch');
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect.poll(() => toolsOf(org, 'writer')).toContain('fetch_weather');
  await expect(row).toContainText('internet access is off for this org');

  await row.getByRole('button', { name: /^Apply fix for/ }).click();
  const ask = page.getByRole('dialog', { name: /^Change the whole org/ });
  await expect(ask).toContainText('turns network access on for the whole org');
  await page.screenshot({ path: testInfo.outputPath('org-wide-fix-asks.png') });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  expect(networkEnabled(org)).toBe(false);
  await expect(row).toContainText('Not available');

  await row.getByRole('button', { name: /^Apply fix for/ }).click();
  await ask.getByRole('button', { name: 'Change the whole org' }).click();
  await expect(row).toContainText('Available to the agent');
  expect(networkEnabled(org)).toBe(true);
});

test("the Tool Store's per-agent list has the org's composed tools, and their toggle writes the resume", async ({
  lemming,
}) => {
  const org = demoWithWeather(lemming);
  await openOrg(lemming, org);
  const { page } = lemming;
  await lemming.showView('Tool Store');
  await page.getByRole('combobox', { name: 'Show tools for agent' }).selectOption('writer');
  const weather = page
    .getByRole('list', { name: 'Tools' })
    .getByRole('listitem')
    .filter({ hasText: 'fetch_weather' })
    .getByRole('checkbox', { name: 'Enabled for writer' });
  await expect(weather).not.toBeChecked();
  await weather.check();
  await expect.poll(() => toolsOf(org, 'writer')).toContain('fetch_weather');
  await expect(weather).toBeChecked();
});

test('the path editor shows what the sandbox allows: blank, ~ and protected places refused, paths saved canonical', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  mkdirSync(join(org, 'shared', 'reports'), { recursive: true });
  const resumePath = join(org, 'agents', 'writer', 'resume.json');
  await openAgent(lemming, org, 'writer');
  const { page } = lemming;
  const writable = page.locator('.file-access-editor').nth(1);

  await page.getByRole('button', { name: 'Add writable path' }).click();
  const entry = page.getByLabel('Writable path 1', { exact: true });
  const note = writable.locator('[data-path-note="0"]');
  for (const [typed, why] of [
    ['   ', 'The path is blank'],
    ['~/Documents', 'variables are not expanded; pick a folder inside the org'],
    ['agents/manager/resume.json', 'cannot be given for writing'],
    ['agents/manager/outbox', 'cannot be given for writing'],
    ['lemming/config', 'cannot be given for writing'],
  ] as const) {
    await entry.fill(typed);
    await expect(note, typed).toContainText('Refused:');
    await expect(note, typed).toContainText(why);
    await expect(entry).toHaveAttribute('aria-invalid', 'true');
  }
  await page.screenshot({ path: testInfo.outputPath('path-protected-refused.png'), fullPage: true });
  await expect(writable).not.toContainText('your workspace');

  await entry.fill('  shared/./reports/../reports/ ');
  await expect(note).toContainText('Leads to shared/reports');
  await expect(note).toContainText('saved as shared/reports');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Saved to agents/writer/resume.json' }),
  ).toBeVisible();
  expect(readJson(resumePath).permissions.file_access.allow_write).toEqual(['shared/reports']);
  await page.screenshot({ path: testInfo.outputPath('path-saved-canonical.png'), fullPage: true });
});

test('Tool Store cards are Ready only when the org lets their tools work, and a bad host is refused at its field', async ({
  lemming,
}, testInfo) => {
  const org = demoWithWeather(lemming);
  await openOrg(lemming, org);
  const { page } = lemming;
  await lemming.showView('Tool Store');

  const web = page.getByRole('listitem', { name: 'Web requests' });
  const weather = page.getByRole('listitem', { name: 'Fetch weather' });
  for (const card of [web, weather]) {
    await expect(card).toContainText('Not usable yet');
    await expect(card).not.toContainText('Ready');
    await expect(card).toContainText('internet access is off for this org');
  }

  await web.getByRole('button', { name: /^Set up/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Web requests settings' });
  await drawer.getByRole('textbox', { name: /Private hosts/ }).fill('nas.local\nnot a host!!');
  await drawer.getByRole('button', { name: 'Save settings' }).click();
  const problems = drawer.getByRole('alert', { name: /^Problems with Private hosts/ });
  await expect(problems).toContainText('"not a host!!" is not a host name');
  await page.screenshot({ path: testInfo.outputPath('host-refused-at-field.png') });
  expect(existsSync(join(org, 'lemming', 'config', 'policy.json'))).toBe(false);

  await drawer.getByRole('textbox', { name: /Private hosts/ }).fill('nas.local');
  await drawer.getByRole('checkbox', { name: 'Allow network access' }).check();
  await drawer.getByRole('button', { name: 'Save settings' }).click();
  await expect(problems).toHaveCount(0);
  await drawer.getByRole('button', { name: 'Close' }).click();
  for (const card of [web, weather]) await expect(card).toContainText('Ready');
  await page.screenshot({ path: testInfo.outputPath('cards-ready.png'), fullPage: true });
});

test("before a run, LeMMing's example org says beside Start which agents will not run and why", async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await openOrg(lemming, org);
  const { page } = lemming;
  const note = page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('status', { name: 'Before you start' });
  await expect(note).toContainText(/\d agents will not run: .*manager/);
  await note.getByText(/agents will not run/).click();
  await expect(note).toContainText(
    'manager ⊘ Will not run: its model gpt-4o (OpenAI) has no API key yet: paste one in Settings, under Models and providers',
  );
  expect(await note.getByRole('listitem').first().innerText()).not.toContain('provider_config');
  await expect(note).not.toContainText('human');
  await expect(note).not.toContainText('echo_cli');
  await page.screenshot({ path: testInfo.outputPath('readiness-beside-start.png') });
});

test('an agent whose last turn failed says why on its node, its page and the agent table, with a link to the turn', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await openOrg(lemming, org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByTestId('current-tick')).toHaveText('Next tick 2', { timeout: 30_000 });

  // Its key is still missing, so it will not run its next turn either: the node says that, and why.
  const why = 'needs an API key';
  const node = page.locator('[data-agent-node="manager"]');
  await expect(node).toContainText('Will not run');
  await expect(node.locator('.agent-node-reason')).toContainText('No API key for');
  await page.screenshot({ path: testInfo.outputPath('failing-node.png') });

  await page.getByRole('button', { name: 'Table' }).click();
  await expect(page.locator('[data-agent-row="manager"]')).toContainText('has no API key yet');

  await page.getByRole('button', { name: 'manager', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Its last turn (tick 1) failed' });
  await expect(alert).toContainText(`model "gpt-4o" (OpenAI) ${why}`);
  await page.screenshot({ path: testInfo.outputPath('failing-agent-page.png') });
  await alert.getByRole('button', { name: 'Show that turn in the timeline' }).click();
  await expect(page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Agent', exact: true })).toHaveValue('manager');
});
