import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

// Issue 30: the person's on/off switch, the next turn in words, and wall-clock schedules.

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

test('the card switches an agent off and on, and says when it next takes its turn', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  const resumePath = join(org, 'agents', 'writer', 'resume.json');
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const graph = page.getByTestId('org-graph');
  await graph.locator('[data-agent-node="writer"] .agent-node-title').click();
  const card = page.getByRole('complementary', { name: 'writer' });
  await expect(card).toBeVisible();
  await expect(card).toContainText(/Next turn\s*at the next tick/);

  const toggle = card.getByRole('switch', { name: 'writer takes its turns' });
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(() => readJson(resumePath).switched_off).toBe(true);
  await expect(card).toContainText('Off: it takes no turns');
  await expect(card).toContainText(/Next turn\s*switched off/);
  await expect(card.locator('.agent-state-switched_off')).toHaveText('○ Switched off');
  await card.screenshot({ path: testInfo.outputPath('card-switched-off.png') });

  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect.poll(() => 'switched_off' in readJson(resumePath)).toBe(false);
});

test('the agent page sets a clock schedule in plain choices, with cron under Advanced, and says what is wrong', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  const resumePath = join(org, 'agents', 'researcher', 'resume.json');
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await page.getByRole('button', { name: 'Choose org folder…' }).click();
  await page.getByRole('button', { name: 'Open agent researcher', exact: true }).click();
  await expect(page.getByRole('heading', { name: /^researcher/ })).toBeVisible();
  await expect(page.getByText(/^Next turn: /)).toBeVisible();
  const toggle = page.getByRole('switch', { name: 'researcher takes its turns' });
  await toggle.click();
  await expect.poll(() => readJson(resumePath).switched_off).toBe(true);
  await expect(page.getByText('Next turn: switched off.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('agent-page-switched-off.png') });
  await toggle.click();
  await expect(page.getByText(/^Next turn: at the next tick\.$/)).toBeVisible();

  await page.getByLabel('When it runs').selectOption('weekdays');
  await page.getByLabel("At (this computer's time)").fill('09:30');
  await expect(page.getByRole('status').filter({ hasText: 'It runs every weekday at 09:30' })).toBeVisible();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect
    .poll(() => readJson(resumePath).schedule)
    .toEqual({ run_every_n_ticks: 1, phase_offset: 0, clock: '30 9 * * 1-5' });
  await expect(page.getByText(/^Next turn: (today|tomorrow|on \w+) at 09:30\.$/)).toBeVisible();
  await page
    .getByRole('group', { name: 'Schedule' })
    .screenshot({ path: testInfo.outputPath('agent-clock-schedule.png') });

  await page.getByRole('group', { name: 'Schedule' }).getByText('Advanced', { exact: true }).click();
  const cron = page.getByLabel('Clock schedule (cron: minute hour day month weekday)');
  await expect(cron).toHaveValue('30 9 * * 1-5');
  await cron.fill('0 25 * * *');
  await expect(
    page.getByRole('alert').filter({ hasText: 'the hour part "25": 25 is outside 0–23' }),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('agent-clock-schedule-wrong.png'), fullPage: true });
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved.' })).toBeVisible();
  expect(readJson(resumePath).schedule.clock).toBe('30 9 * * 1-5');

  await page.getByLabel('When it runs').selectOption('ticks');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(() => 'clock' in readJson(resumePath).schedule).toBe(false);
});

test('Settings says in words what follows ticks missed while the app was closed, and keeps the choice', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await page.getByRole('button', { name: /^Settings/ }).click();
  const missed = page.getByRole('group', { name: /When ticks were missed/ });
  const once = missed.getByRole('radio', { name: /^Catch up once/ });
  await expect(missed.getByRole('radio', { name: /^Wait: an agent that missed its turn/ })).toBeChecked();
  await once.check();
  await page.getByRole('button', { name: 'Save run settings' }).click();
  await expect.poll(() => readJson(join(org, 'lemming/config/schedule.json'))).toEqual({ catch_up: 'once' });
  await missed.screenshot({ path: testInfo.outputPath('settings-missed-ticks.png') });
  await expect(page.getByText('Run settings saved')).toBeVisible();
});
