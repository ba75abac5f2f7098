import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

/** A temp org, trusted: `keeper` and `tidier` each ask to run one shell command at tick 1, then write notes. */
async function askingOrg(lemming: LemmingHarness): Promise<string> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const shellAgent = (name: string, command: string) => ({
    title: `${name} agent`,
    description: name,
    instructions: `You are ${name}.`,
    tools: ['shell'],
    steps: [
      { when: { tick: 1, round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command } }] } },
      { respond: { notes: 'read the tool results' } },
    ],
  });
  addScriptedAgents(org, 'queue', {
    keeper: shellAgent('keeper', 'echo kept > kept.txt'),
    tidier: shellAgent('tidier', 'echo tidied > tidied.txt'),
  });
  await lemming.trustAsIs(org);
  return org;
}

function turnsOf(org: string, agent: string): { tick: number; status: string }[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT tick, status FROM turns WHERE agent = ? ORDER BY tick').all(agent) as {
      tick: number;
      status: string;
    }[];
  } finally {
    db.close();
  }
}

test('turns that wait for the person park while the org goes on; the queue lists them oldest first and answers them', async ({
  lemming,
}, testInfo) => {
  const org = await askingOrg(lemming);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  const step = page.getByRole('button', { name: 'Step one tick' });
  await step.click();

  // The tick ends without the two asking turns: the run bar says two wait, and the next tick runs.
  const open = page.getByRole('button', { name: 'Waiting for you (2)' });
  await expect(open).toBeVisible();
  await expect(page.getByTestId('current-tick')).toHaveText('Next tick 2');
  await step.click();
  await expect(page.getByTestId('current-tick')).toHaveText('Next tick 3');
  expect(turnsOf(org, 'keeper')).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('run-bar-waiting.png') });

  await open.click();
  const queue = page.getByRole('dialog', { name: 'Waiting for you' });
  await expect(queue).toBeVisible();
  const rows = queue.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('asks you to allow Run a shell command');
  await expect(rows.first()).toContainText('from tick 1');
  await expect(rows.first()).toContainText('Waiting since');
  await expect(queue.getByText('{"command":"echo kept > kept.txt"}')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('waiting-queue.png') });

  const keeper = queue.getByRole('listitem', { name: 'keeper asks you to allow Run a shell command' });
  await keeper.getByRole('button', { name: 'Allow once' }).click();
  await expect(keeper).toBeHidden();
  const tidier = queue.getByRole('listitem', { name: 'tidier asks you to allow Run a shell command' });
  await tidier.getByRole('button', { name: 'Deny' }).click();
  await expect(queue.getByText('Nothing waits for you now.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('waiting-queue-empty.png') });

  // Each answer resumes its turn at once, where it stopped, committed under the tick it parked at.
  await expect
    .poll(() => turnsOf(org, 'keeper'), { timeout: 20_000 })
    .toEqual([{ tick: 1, status: 'completed' }]);
  await expect
    .poll(() => turnsOf(org, 'tidier'), { timeout: 20_000 })
    .toEqual([{ tick: 1, status: 'completed' }]);
  expect(readFileSync(join(org, 'agents/keeper/workspace/kept.txt'), 'utf8')).toBe('kept\n');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: /Waiting for you/ })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Needs you' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('after-answers.png') });
});
