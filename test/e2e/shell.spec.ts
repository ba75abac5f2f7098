import { expect, test, type LemmingHarness } from '../harness/lemming-fixture';

async function openDemo(lemming: LemmingHarness) {
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(lemming.page.locator('[data-app-state="open"]')).toBeVisible();
}

function callsTo(lemming: LemmingHarness, channel: string) {
  return lemming.calls.filter((call) => call.channel === channel);
}

test('the header names the org, and Ctrl+1..4 switch the main views', async ({ lemming }, testInfo) => {
  await openDemo(lemming);
  const { page } = lemming;
  await expect(page.getByRole('banner')).toContainText('LeMMing Demo');
  const nav = page.getByRole('navigation', { name: 'Main views' });
  await expect(nav.getByRole('button', { name: /^Org/ })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('button', { name: /^Settings/ })).toHaveAttribute(
    'aria-keyshortcuts',
    /Control\+4/,
  );

  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  await expect(nav.getByRole('button', { name: /^Settings/ })).toHaveAttribute('aria-current', 'page');
  await expect(page.locator('#main')).toBeFocused();

  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
  await page.keyboard.press('Control+3');
  await expect(nav.getByRole('button', { name: /^Tool Store/ })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { name: 'Credits' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('shell-org.png'), fullPage: true });
});

test('a message to the agents lands in the human outbox and is confirmed', async ({ lemming }) => {
  await openDemo(lemming);
  const { page } = lemming;
  const send = page.getByRole('button', { name: 'Send message' });
  await expect(send).toBeDisabled();
  await page
    .getByRole('textbox', { name: 'Message to the agents' })
    .fill('Please keep the launch note short.');
  await page.getByRole('combobox', { name: 'To' }).selectOption('writer');
  await page.getByRole('combobox', { name: 'Importance' }).selectOption('high');
  await send.click();
  await expect.poll(() => callsTo(lemming, 'messages.send').length).toBe(1);

  const notifications = page.getByRole('region', { name: 'Notifications' });
  await expect(notifications).toContainText('Message sent');
  await expect(notifications).toContainText('For writer');
  expect(callsTo(lemming, 'messages.send').at(-1)).toMatchObject({
    input: { text: 'Please keep the launch note short.', importance: 'high', target: 'writer' },
    response: { ok: true },
  });
  await expect(page.getByRole('textbox', { name: 'Message to the agents' })).toHaveValue('');
});

test('a top-up asks first; cancelling changes nothing, confirming adds the credits', async ({
  lemming,
}, testInfo) => {
  await openDemo(lemming);
  const { page } = lemming;
  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(page.getByTestId('ticks-done')).toHaveText('1 tick done');

  const form = page.getByRole('form', { name: 'Top up credits' });
  await form.getByRole('combobox', { name: 'Agent' }).selectOption('writer');
  await form.getByRole('spinbutton', { name: 'Credits to add' }).fill('25');
  await form.getByRole('button', { name: 'Top up…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add 25 credits to writer?' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('top-up-confirm.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(callsTo(lemming, 'credits.topUp')).toEqual([]);

  await form.getByRole('button', { name: 'Top up…' }).click();
  await dialog.getByRole('button', { name: 'Add credits' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(
    'Added 25 credits to writer',
  );
  await expect.poll(() => callsTo(lemming, 'credits.topUp').length).toBe(1);
  const topUp = callsTo(lemming, 'credits.topUp')[0]!;
  expect(topUp.input).toEqual({ agent: 'writer', amount: 25 });
  const balance = (topUp.response as { value: { balance: number } }).value.balance;
  const writer = page
    .getByRole('list', { name: 'Credit balances' })
    .getByRole('listitem', { name: 'writer' });
  await expect(writer.getByTestId('balance')).toHaveText(
    `${balance.toLocaleString('en-US', { maximumFractionDigits: 4 })} credits`,
  );
  await writer.getByText('Recent changes').click();
  await expect(writer.getByRole('cell', { name: 'Top-up' })).toBeVisible();
});

test('pause, resume and stop drive the run, and the phase is shown in words', async ({ lemming }) => {
  await openDemo(lemming);
  const { page } = lemming;
  const controls = page.getByRole('region', { name: 'Run controls' });
  await controls.getByRole('spinbutton', { name: 'Ticks to run', exact: true }).fill('');
  await controls.getByRole('spinbutton', { name: 'Seconds between ticks' }).fill('0.5');
  await controls.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => callsTo(lemming, 'run.start')[0]?.input).toEqual({ intervalMs: 500 });

  await controls.getByRole('button', { name: 'Pause' }).click();
  await expect(controls).toHaveAttribute('data-run-phase', 'paused');
  await expect(controls.getByText('Paused', { exact: true })).toBeVisible();
  await controls.getByRole('button', { name: 'Resume' }).click();
  await expect(controls).toHaveAttribute('data-run-phase', /running|stepping/);
  await controls.getByRole('button', { name: 'Stop' }).click();
  await expect(controls).toHaveAttribute('data-run-phase', 'idle');
  await expect(controls.getByText(/^Stopped/)).toBeVisible();
});

test('settings: models with a connection test, and API keys that are write-only', async ({
  lemming,
}, testInfo) => {
  await openDemo(lemming);
  const { page } = lemming;
  await page.keyboard.press('Control+4');

  const model = page.getByRole('list', { name: 'Models' }).getByRole('listitem', { name: 'demo-scripted' });
  await expect(model).toContainText('Used by');
  await model.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(model.getByRole('status')).toContainText('It works.');

  const value = 'sk-test-never-shown-0123456789';
  await page.getByText('Add a secret').click();
  await page.getByRole('textbox', { name: 'Secret name', exact: true }).fill('demo_key');
  await expect(page.getByRole('textbox', { name: 'Secret name', exact: true })).toHaveValue('DEMO_KEY');
  await page.getByLabel('Secret value', { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Save secret' }).click();
  const secret = page.getByRole('list', { name: 'Secrets' }).getByRole('listitem', { name: 'DEMO_KEY' });
  await expect(secret).toContainText('Is set');
  await expect(page.getByLabel('Secret value', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain(value);
  await page.screenshot({ path: testInfo.outputPath('settings.png'), fullPage: true });

  await secret.getByRole('button', { name: 'Delete…' }).click();
  await page
    .getByRole('dialog', { name: 'Delete DEMO_KEY?' })
    .getByRole('button', { name: 'Delete secret' })
    .click();
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Deleted DEMO_KEY');
  await expect(
    page.getByRole('list', { name: 'Secrets' }).getByRole('listitem', { name: 'DEMO_KEY' }),
  ).toHaveCount(0);
});

test('a refused change shows the reason in an error toast', async ({ lemming }, testInfo) => {
  await openDemo(lemming);
  const { page } = lemming;
  await page.keyboard.press('Control+4');
  await page.getByText('Add a secret').click();
  await page.getByRole('textbox', { name: 'Secret name', exact: true }).fill('9 bad name');
  await page.getByLabel('Secret value', { exact: true }).fill('x');
  await page.getByRole('button', { name: 'Save secret' }).click();

  const errors = page.getByRole('region', { name: 'Errors' });
  await expect(errors).toContainText('Could not save 9 BAD NAME');
  await expect(errors).toContainText('upper-case letters, digits and "_"');
  await page.screenshot({ path: testInfo.outputPath('error-toast.png') });
  await errors.getByRole('button', { name: /^Dismiss/ }).click();
  await expect(errors).toBeEmpty();
});
