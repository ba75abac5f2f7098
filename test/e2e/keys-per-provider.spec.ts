import { join } from 'node:path';
import { UPSTREAM_FIXTURES, expect, test } from '../harness/lemming-fixture';

// Issue 28, Done-means 1: a key pasted on a model LeMMing's example org already has works, and one key
// serves every model of that provider.

const OPENAI_KEY = 'sk-pasted-on-a-card-7c41e2';

test('pasting an OpenAI key on an existing model card makes its agents ready and serves every OpenAI model', async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  const note = page
    .getByRole('region', { name: 'Run controls' })
    .getByRole('status', { name: 'Before you start' });
  await expect(note).toContainText(/5 agents will not run: .*manager/);
  await note.getByText(/agents will not run/).click();
  const managerLine = note.getByRole('listitem').filter({ hasText: /^manager\b/ });
  await expect(managerLine).toContainText(
    'its model gpt-4o (OpenAI) has no API key yet: paste one in Settings, under Models and providers',
  );
  // The file's field names are there only for who opens Advanced.
  expect(await managerLine.innerText()).not.toContain('provider_config');
  await page.screenshot({ path: testInfo.outputPath('keys-blocked-run-bar.png') });

  await managerLine.getByRole('button', { name: 'Open Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  const models = page.getByRole('list', { name: 'Models' });
  const card = models.getByRole('listitem', { name: 'gpt-4o', exact: true });
  await expect(card).toContainText('Needs an API key');
  await card.getByLabel(/^API key/).fill(OPENAI_KEY);
  await card.getByRole('button', { name: 'Save gpt-4o' }).click();
  await expect(page.getByText(/The same key now serves gpt-4o-mini, gpt-4-turbo/)).toBeVisible();
  await expect(page.getByText('Invalid input')).toHaveCount(0);

  for (const name of ['gpt-4o', 'gpt-4o-mini', 'gpt-4-turbo', 'gpt-4', 'gpt-3.5-turbo', 'gpt-4.1-mini'])
    await expect(models.getByRole('listitem', { name, exact: true })).toContainText('Key is set');
  for (const name of ['claude-3-opus', 'claude-3-sonnet', 'claude-3-haiku'])
    await expect(models.getByRole('listitem', { name, exact: true })).toContainText('Needs an API key');
  await expect(card.getByLabel(/^API key/)).toHaveAttribute(
    'placeholder',
    'Saved for every OpenAI model. Paste a new key to replace it',
  );
  await page.screenshot({ path: testInfo.outputPath('keys-saved.png'), fullPage: true });

  // The run bar's "will not run" clears at once: every blocked agent of the example org uses an OpenAI model.
  await expect(note).toBeHidden();
  for (const call of lemming.calls) expect(JSON.stringify(call.response)).not.toContain(OPENAI_KEY);
});
