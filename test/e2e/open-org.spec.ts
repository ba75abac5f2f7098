import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test, UPSTREAM_FIXTURES } from '../harness/lemming-fixture';

const EXAMPLE_ORG = join(UPSTREAM_FIXTURES, 'example-org');
const EXAMPLE_AGENTS = [
  'echo_cli',
  'human',
  'log_summarizer',
  'manager',
  'manager_cli',
  'spec_writer',
  'ui_copy_editor',
];

test('an empty window says how to begin', async ({ lemming }) => {
  await lemming.gotoApp();
  await expect(lemming.page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();
  await expect(lemming.page.getByRole('button', { name: 'Choose org folder…' })).toBeEnabled();
});

test('choosing the LeMMing example org lists its agents', async ({ lemming }, testInfo) => {
  const org = lemming.copyOfFolder(EXAMPLE_ORG);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();

  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  // An org from elsewhere: its trust screen first, and everything in it can be looked at without running it.
  await lemming.page.getByRole('button', { name: 'Open without running' }).click();

  const list = lemming.page.getByRole('list', { name: 'Agents' });
  await expect(list.locator(':scope > li')).toHaveCount(EXAMPLE_AGENTS.length);
  for (const name of EXAMPLE_AGENTS)
    await expect(list.getByRole('listitem', { name, exact: true })).toBeVisible();
  await expect(list.getByRole('listitem', { name: 'manager', exact: true })).toContainText(
    'Engineering Manager',
  );
  await expect(lemming.page.locator('[data-app-state="open"]')).toBeVisible();
  await lemming.page.screenshot({ path: testInfo.outputPath('example-org-agents.png'), fullPage: true });
});

test('a malformed resume shows as an invalid agent with its reason, and the app keeps working', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(EXAMPLE_ORG);
  writeFileSync(
    join(org, 'agents', 'spec_writer', 'resume.json'),
    '{\n  "name": "spec_writer",\n  "title": "Spec writer",,\n}\n',
  );
  writeFileSync(
    join(org, 'agents', 'ui_copy_editor', 'resume.json'),
    JSON.stringify({
      name: 'ui_copy_editor',
      title: 'Copy',
      instructions: 'x',
      model: { key: 'gpt-4o' },
      permissions: { read_outboxes: [], tools: [] },
      schedule: { run_every_n_ticks: 0, phase_offset: 0 },
    }),
  );
  await lemming.gotoApp();

  await lemming.page.getByRole('textbox', { name: 'Org folder path' }).fill(org);
  await lemming.page.getByRole('button', { name: 'Open', exact: true }).click();
  await lemming.page.getByRole('button', { name: 'Open without running' }).click();

  const list = lemming.page.getByRole('list', { name: 'Agents' });
  await expect(list.locator(':scope > li')).toHaveCount(EXAMPLE_AGENTS.length);
  const broken = list.getByRole('listitem', { name: 'spec_writer', exact: true });
  await expect(broken).toContainText('Invalid resume');
  await expect(broken).toContainText('agents/spec_writer/resume.json:3:');
  await expect(broken).toContainText('invalid JSON');
  const badSchedule = list.getByRole('listitem', { name: 'ui_copy_editor', exact: true });
  await expect(badSchedule).toContainText('schedule.run_every_n_ticks');
  await expect(badSchedule).toContainText('run_every_n_ticks must be at least 1');
  // A valid resume is not "Ready" by itself: the manager's model has no key yet, and its row says so.
  await expect(list.getByRole('listitem', { name: 'manager', exact: true })).toContainText('Will not run');
  await expect(list.getByRole('listitem', { name: 'echo_cli', exact: true })).toContainText('Ready');
  await expect(lemming.page.getByText('2 need attention')).toBeVisible();
  await lemming.page.screenshot({ path: testInfo.outputPath('invalid-resumes.png'), fullPage: true });

  // Still working: another org opens after the broken one.
  const other = lemming.copyOfFolder(EXAMPLE_ORG);
  lemming.setPickedFolder(other);
  await lemming.page.getByRole('button', { name: 'Open another org…' }).click();
  await lemming.page.getByRole('button', { name: 'Open without running' }).click();
  await expect(lemming.page.getByRole('list', { name: 'Agents' })).toBeVisible();
  await expect(lemming.page.getByText('need attention')).toHaveCount(0);
});

test('a path that is not a folder is refused with a reason', async ({ lemming }) => {
  await lemming.openOrgAt('/definitely/not/here');
  await expect(lemming.page.getByRole('alert')).toContainText('No folder at /definitely/not/here');
});

test('the CSP is enforced: an injected inline script does not run, and the app itself causes no violation', async ({
  lemming,
}) => {
  const violations: string[] = [];
  lemming.page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await lemming.gotoApp();
  await expect(lemming.page.getByRole('heading', { name: 'Open an org to begin' })).toBeVisible();
  expect(violations).toEqual([]);

  const injectedRan = await lemming.page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(injectedRan).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

test('a page from another origin is refused by main, and the app cannot be framed', async ({ lemming }) => {
  const foreign = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end(
      `<!doctype html><title>foreign</title><iframe id="app" src="${lemming.origin}/index.html"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  try {
    const foreignOrigin = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
    await lemming.page.goto(`${foreignOrigin}/`);
    const result = await lemming.page.evaluate(() => window.lemming.app.info());
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });

    const appFrame = lemming.page.frames().find((frame) => frame.url().startsWith(lemming.origin));
    const framedAppRendered = appFrame ? await appFrame.locator('#root').count() : 0;
    expect(framedAppRendered).toBe(0);
  } finally {
    await new Promise((resolve) => foreign.close(resolve));
  }
  expect(lemming.calls.filter((call) => (call.response as { ok: boolean }).ok)).toEqual([]);
});

test('main answers app.info with the runtime versions', async ({ lemming }) => {
  await lemming.gotoApp();
  const info = await lemming.page.evaluate(() => window.lemming.app.info());
  expect(info).toMatchObject({ ok: true, value: { name: 'LeMMing Desktop', runtime: { electron: null } } });
});
