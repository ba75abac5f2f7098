import AxeBuilder from '@axe-core/playwright';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

/** A temp org, trusted by its person: `keeper` and `tidier` each ask to run one shell command, then write notes. */
async function shellOrg(lemming: LemmingHarness): Promise<string> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const shellAgent = (name: string, command: string) => ({
    title: `${name} agent`,
    description: name,
    instructions: `You are ${name}.`,
    tools: ['shell'],
    steps: [
      { when: { round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command } }] } },
      { respond: { notes: 'read the tool results' } },
    ],
  });
  addScriptedAgents(org, 'approvals', {
    keeper: shellAgent('keeper', 'echo kept > kept.txt'),
    tidier: shellAgent('tidier', 'rm -rf ../../../shared'),
  });
  await lemming.trustAsIs(org);
  return org;
}

function timeline(org: string): Record<string, any>[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT json FROM events ORDER BY seq').all() as { json: string }[]).map(
      (row) => JSON.parse(row.json) as Record<string, any>,
    );
  } finally {
    db.close();
  }
}

test('approving one call and denying another: the model sees the denial, and every answer is in the timeline', async ({
  lemming,
}, testInfo) => {
  const org = await shellOrg(lemming);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();

  const keeper = page.getByRole('alertdialog', { name: 'keeper wants to use Run a shell command' });
  const tidier = page.getByRole('alertdialog', { name: 'tidier wants to use Run a shell command' });
  await expect(keeper).toBeVisible();
  await expect(tidier).toBeVisible();
  await expect(tidier).toContainText('rm -rf ../../../shared');
  await expect(tidier).toContainText('It runs a command on this computer with your rights.');
  await page.screenshot({ path: testInfo.outputPath('approval-cards.png'), fullPage: true });
  const scan = await new AxeBuilder({ page }).include('.approval-cards').analyze();
  expect(
    scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);

  await keeper.getByRole('button', { name: 'Allow once' }).click();
  await expect(keeper).toBeHidden();
  await tidier.getByRole('button', { name: 'Deny…' }).click();
  await tidier.getByLabel('Why not? tidier is told this.').fill('never delete the shared folder');
  await page.screenshot({ path: testInfo.outputPath('approval-deny.png'), fullPage: true });
  await tidier.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(tidier).toBeHidden();

  await expect
    .poll(() => timeline(org).filter((event) => event.kind === 'turn_completed').length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(2);
  const events = timeline(org);
  expect(readFileSync(join(org, 'agents/keeper/workspace/kept.txt'), 'utf8')).toBe('kept\n');
  expect(existsSync(join(org, 'shared'))).toBe(true);
  const answers = events.filter((event) => event.kind === 'approval_answered');
  expect(
    answers
      .map(({ agent, answer, source }) => ({ agent, answer, source }))
      .sort((a, b) => a.agent.localeCompare(b.agent)),
  ).toEqual([
    { agent: 'keeper', answer: 'approve_once', source: 'person' },
    { agent: 'tidier', answer: 'deny', source: 'person' },
  ]);
  expect(events.filter((event) => event.kind === 'approval_requested')).toHaveLength(2);
  // What the model was told in the round after the denied call.
  const told = events.find(
    (event) => event.kind === 'model_call' && event.agent === 'tidier' && event.round === 2,
  );
  expect(JSON.stringify(told?.prompt)).toContain(
    'the user denied it. Their reason: never delete the shared folder',
  );
  expect(lemming.events.some((event) => event.name === 'approvals.changed')).toBe(true);

  // The timeline view shows the answers in words.
  await lemming.showView('Timeline');
  await expect(
    page.getByText('Run a shell command denied (person): never delete the shared folder'),
  ).toBeVisible();
});

test("the Tool Store shows and changes each agent's approval settings", async ({ lemming }, testInfo) => {
  const org = await shellOrg(lemming);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await lemming.showView('Tool Store');
  const section = page.getByRole('region', { name: 'Ask me first' });
  await section.getByLabel('Approval settings for agent').selectOption('keeper');
  const table = section.getByRole('table', { name: 'Approval settings for keeper' });
  await expect(table).toContainText('Asks before every command.');
  const shell = table.getByLabel('When Run a shell command runs for keeper');
  await expect(shell).toHaveValue('default');
  await section.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('tool-store-approvals.png'), fullPage: true });
  await expect(section).toHaveScreenshot('tool-store-approvals.png');

  await shell.selectOption('never');
  await expect(shell).toHaveValue('never');
  // Kept for this keeper, by the id in its folder: a new agent named keeper would not take it over.
  const keeperId = readFileSync(join(org, 'agents/keeper/.agent-id'), 'utf8').trim();
  expect(JSON.parse(readFileSync(join(org, 'lemming/config/approvals.json'), 'utf8'))).toEqual({
    agents: { keeper: { shell: 'never' } },
    agent_ids: { keeper: keeperId },
  });
  await shell.selectOption('default');
  await expect(shell).toHaveValue('default');
  await section.getByLabel('Deny a request nobody answers after').fill('90');
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByText('(now 90 seconds)')).toBeVisible();
  expect(JSON.parse(readFileSync(join(org, 'lemming/config/approvals.json'), 'utf8'))).toEqual({
    agents: {},
    agent_ids: {},
    timeout_seconds: 90,
  });
});
