import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

/** Opens a copy of the demo org, trusted as it is. */
async function openDemo(lemming: LemmingHarness): Promise<string> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
  return org;
}

const boxOf = async (lemming: LemmingHarness, selector: string) => {
  const box = await lemming.page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on screen`);
  return box;
};

test('a department is made in the app, groups its agents on the graph, filters the timeline and has a credits line', async ({
  lemming,
}, testInfo) => {
  const org = await openDemo(lemming);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByTestId('ticks-done')).toHaveText('1 tick done');

  await page.getByRole('button', { name: 'Departments…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Departments' });
  await expect(dialog.getByText('No departments yet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'New department…' }).click();
  const form = dialog.getByRole('form', { name: 'New department' });
  await form.getByLabel('Name').fill('desk');
  await form.getByLabel('What it does').fill('Researches and writes the launch note');
  await form.getByRole('checkbox', { name: 'researcher' }).check();
  await form.getByRole('checkbox', { name: 'writer' }).check();
  await dialog.screenshot({ path: testInfo.outputPath('department-form.png') });
  await form.getByRole('button', { name: 'Save department' }).click();
  await expect(dialog.getByRole('list', { name: 'Departments' })).toContainText('researcher, writer');
  await dialog.screenshot({ path: testInfo.outputPath('department-list.png') });
  await dialog.getByRole('button', { name: 'Done' }).click();

  // Written as LeMMing writes departments, with the agents beside its keys.
  const written = JSON.parse(readFileSync(join(org, 'departments', 'desk.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  expect(written).toMatchObject({ name: 'desk', version: '1.0.0', agents: ['researcher', 'writer'] });

  const graph = page.getByTestId('org-graph');
  await expect(graph.locator('.department-box-name')).toHaveText('desk');
  await page.waitForTimeout(600);
  const box = await boxOf(lemming, '.react-flow__node-department');
  for (const [agent, inside] of [
    ['researcher', true],
    ['writer', true],
    ['manager', false],
  ] as const) {
    const card = await boxOf(lemming, `.react-flow__node[data-id="${agent}"]`);
    const within =
      card.x >= box.x &&
      card.y >= box.y &&
      card.x + card.width <= box.x + box.width &&
      card.y + card.height <= box.y + box.height;
    expect(within, `${agent} inside the desk box`).toBe(inside);
  }
  await graph.screenshot({ path: testInfo.outputPath('department-on-graph.png') });

  const spend = page.getByRole('list', { name: 'Spent by department' });
  await expect(spend.getByRole('listitem', { name: 'desk' })).toContainText('credits today');
  await expect(spend.getByRole('listitem', { name: 'desk' })).toContainText('researcher, writer');

  await lemming.showView('Timeline');
  const agentCells = page.locator('.timeline-cell.agent');
  await expect(agentCells.filter({ hasText: 'manager' }).first()).toBeVisible();
  await page.getByLabel('Department').selectOption('desk');
  await expect(agentCells.filter({ hasText: 'manager' })).toHaveCount(0);
  await expect(agentCells.first()).toBeVisible();
  expect(new Set(await agentCells.allTextContents())).toEqual(new Set(['researcher', 'writer']));
  await page.screenshot({ path: testInfo.outputPath('department-timeline.png') });
});

test('updating from a newer copy shows each agent’s changes, the instructions’ diff, and that the org needs trust again', async ({
  lemming,
}, testInfo) => {
  const org = await openDemo(lemming);
  const { page } = lemming;
  const template = lemming.copyOfFolder(DEMO_ORG);
  const writerFile = join(template, 'agents', 'writer', 'resume.json');
  const writer = JSON.parse(readFileSync(writerFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    writerFile,
    JSON.stringify({
      ...writer,
      instructions: 'You write the launch note in plain words.\nKeep it under 200 words.',
    }),
  );
  const researcherFile = join(template, 'agents', 'researcher', 'resume.json');
  const researcher = JSON.parse(readFileSync(researcherFile, 'utf8')) as {
    permissions: Record<string, unknown>;
  };
  writeFileSync(
    researcherFile,
    JSON.stringify({ ...researcher, permissions: { ...researcher.permissions, tools: ['shell'] } }),
  );

  await page.getByRole('button', { name: 'Update from…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Update from a newer copy' });
  // A template shipped with the app is offered by its name; the demo was not made from this one.
  const fromTemplate = dialog.getByRole('form', { name: 'A template' });
  await fromTemplate.getByLabel(/newest version of a template/).selectOption({ label: 'Content pipeline' });
  await fromTemplate.getByRole('button', { name: 'Compare' }).click();
  await expect(dialog.getByRole('region', { name: 'researcher' })).toContainText('Not in the newer copy');

  const fromFolder = dialog.getByRole('form', { name: 'The newer copy' });
  await fromFolder.getByLabel(/Folder or bundle/).fill(template);
  await fromFolder.getByRole('button', { name: 'Compare' }).click();

  const writerCard = dialog.getByRole('region', { name: 'writer' });
  await expect(writerCard).toContainText('Its instructions change: 2 lines added, 1 line removed.');
  await writerCard.getByText('Show changes').click();
  await expect(writerCard.getByLabel('Instructions, before and after')).toContainText(
    '+ Keep it under 200 words.',
  );
  const researcherCard = dialog.getByRole('region', { name: 'researcher' });
  await expect(researcherCard).toContainText('Gains the tools: shell.');
  await expect(researcherCard).toContainText('Reaches further');
  await expect(researcherCard.getByRole('list', { name: 'New to trust' })).toContainText(
    'New to trust: the agent “researcher”, which may run any command its model writes',
  );
  await expect(dialog.getByRole('note')).toContainText('the org will not run until you trust it again');
  await expect(dialog).toContainText('Unchanged: human, manager');
  await dialog.screenshot({ path: testInfo.outputPath('update-review.png') });

  await researcherCard.getByRole('checkbox', { name: 'Update this agent' }).uncheck();
  await expect(dialog.getByRole('note')).toBeHidden();
  await dialog.getByRole('button', { name: 'Update 1 agent' }).click();
  await expect(dialog.getByRole('status')).toContainText('Updated: writer. Added: none. Removed: none.');
  const after = JSON.parse(readFileSync(join(org, 'agents', 'writer', 'resume.json'), 'utf8')) as {
    instructions: string;
  };
  expect(after.instructions).toBe('You write the launch note in plain words.\nKeep it under 200 words.');
});
