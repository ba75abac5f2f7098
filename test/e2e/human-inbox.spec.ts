import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from '../harness/lemming-fixture';

function humanOutbox(org: string): { payload: { text: string; target: string | null } }[] {
  const folder = join(org, 'agents', 'human', 'outbox');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .map(
      (file) =>
        JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
          payload: { text: string; target: string | null };
        },
    );
}

/** A new window on the same demo org (opening the demo again keeps the user's copy and its progress). */
async function reopenDemo(page: Page): Promise<void> {
  await page.reload();
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
}

test('an agent replies to the human: the header shows 1 unread, the inbox shows it, and a reply lands in the human outbox', async ({
  lemming,
}, testInfo) => {
  const { page } = lemming;
  await lemming.gotoApp();
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(page.getByRole('button', { name: 'Messages', exact: true })).toBeVisible();

  // Tick 1 of the demo: the manager delegates to the researcher and tells the human its plan.
  await page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('button', { name: 'Step one tick' })
    .click();
  const inboxButton = page.getByRole('button', { name: /^Messages ?, 1 unread$/ });
  await expect(inboxButton).toBeVisible();
  await expect(inboxButton.getByTestId('unread-count')).toHaveText(', 1 unread');

  await inboxButton.click();
  const messages = page.getByRole('list', { name: 'Your messages' });
  await expect(messages.getByRole('listitem')).toHaveCount(1);
  const message = messages.getByRole('listitem', { name: 'Message from manager' });
  await expect(message).toContainText('Plan: research, then a draft, then review.');
  await expect(message.getByRole('img', { name: 'Unread' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('inbox-unread.png'), fullPage: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include('.inbox').include('.app-header').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map(
        (v) => `${scheme} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      ),
    ).toEqual([]);
  }
  await page.screenshot({ path: testInfo.outputPath('inbox-unread-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  const org = lemming.currentOrgPath();
  const before = humanOutbox(org).length;
  await message.getByRole('button', { name: 'Reply' }).click();
  await message.getByRole('textbox', { name: 'Reply to manager' }).fill('Sounds good. Keep it short.');
  await message.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByText('Reply sent to manager.')).toBeVisible();
  // The reply sits under the message it answers.
  const replies = message.getByRole('list', { name: 'Your replies to manager' });
  await expect(replies).toContainText('Sounds good. Keep it short.');

  const outbox = humanOutbox(org);
  expect(outbox).toHaveLength(before + 1);
  expect(outbox.map((entry) => entry.payload)).toContainEqual(
    expect.objectContaining({ text: 'Sounds good. Keep it short.', target: 'manager' }),
  );
  // Answering read the message: the count is gone, and stays gone after the window reloads.
  await expect(page.getByRole('button', { name: 'Messages', exact: true })).toBeVisible();
  await expect(message.getByRole('img', { name: 'Unread' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('inbox-replied.png'), fullPage: true });
  await reopenDemo(page);
  await expect(page.getByRole('button', { name: 'Messages', exact: true })).toBeVisible();
  // Read again from the org's timeline, the reply is still under its message.
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  await expect(replies).toContainText('Sounds good. Keep it short.');
  await page.screenshot({ path: testInfo.outputPath('inbox-reply-under-message.png'), fullPage: true });
});

test('marking a message read is remembered', async ({ lemming }) => {
  const { page } = lemming;
  await lemming.gotoApp();
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('button', { name: 'Step one tick' })
    .click();
  await page.getByRole('button', { name: /^Messages ?, 1 unread$/ }).click();
  const message = page.getByRole('listitem', { name: 'Message from manager' });
  await message.getByRole('button', { name: 'Mark as read' }).click();
  await expect(page.getByRole('button', { name: 'Messages', exact: true })).toBeVisible();
  await expect(message.getByRole('img', { name: 'Unread' })).toHaveCount(0);
  await reopenDemo(page);
  await expect(page.getByRole('button', { name: 'Messages', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Messages', exact: true }).click();
  await expect(
    page.getByRole('listitem', { name: 'Message from manager' }).getByRole('img', { name: 'Unread' }),
  ).toHaveCount(0);
});
