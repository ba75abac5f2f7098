import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeOpenAiServer } from '../../engine/models/test-support/fake-model-server';
import { startLoopbackServer, type LoopbackServer } from '../../engine/models/test-support/loopback-server';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

const servers: LoopbackServer[] = [];
test.afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

const GOOD_KEY = 'sk-test-good-0123456789';
const WRONG_KEY = 'sk-test-wrong-9876543210';

test('adding an OpenAI-compatible model by its key, picked from the server’s list, with plain words for a wrong key and a server that is down', async ({
  lemming,
}, testInfo) => {
  const server = await startFakeOpenAiServer({ key: GOOD_KEY, models: ['gpt-test-mini', 'gpt-test-large'] });
  servers.push(server);
  const gone = await startLoopbackServer(() => undefined);
  await gone.close();

  const org = lemming.copyOfFolder(DEMO_ORG);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  const { page } = lemming;
  await page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();

  await page.getByText('Add a model', { exact: true }).click();
  const form = page.getByRole('form', { name: 'Add a model' });
  await form.getByLabel('Where the model runs').selectOption({ label: 'OpenAI-compatible server' });
  const address = form.getByLabel('Server address');
  const key = form.getByLabel(/^API key/);

  // A server that is not running: said at the address.
  await address.fill(`${gone.url}/v1`);
  await form.getByRole('button', { name: 'Show the server’s models' }).click();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(address).toHaveAccessibleDescription(
    `Nothing is answering at ${new URL(gone.url).host}. Is the OpenAI-compatible server running? Start it, then try again.`,
  );
  await page.screenshot({ path: testInfo.outputPath('model-setup-server-down.png'), fullPage: true });

  // A wrong key: said at the key.
  await address.fill(`${server.url}/v1`);
  await key.fill(WRONG_KEY);
  await form.getByRole('button', { name: 'Show the server’s models' }).click();
  await expect(key).toHaveAttribute('aria-invalid', 'true');
  await expect(key).toHaveAccessibleDescription(
    /did not accept this API key\. Check that you copied all of it/,
  );
  await expect(address).not.toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: testInfo.outputPath('model-setup-wrong-key.png'), fullPage: true });

  // The right key: the server's models to pick from, a test, and the model is added.
  await key.fill(GOOD_KEY);
  await form.getByRole('button', { name: 'Show the server’s models' }).click();
  const model = form.getByRole('combobox', { name: /^Model/ });
  await expect(model.locator('option')).toHaveText(['gpt-test-large', 'gpt-test-mini']);
  await model.selectOption('gpt-test-mini');
  await expect(form.getByLabel('Name your agents use for it')).toHaveValue('gpt-test-mini');
  await form.getByRole('button', { name: 'Test' }).click();
  await expect(form.getByRole('status', { name: 'Test result' })).toContainText(
    /It works\. gpt-test-mini answered in \d+ ms: "OK"/,
  );
  await page.screenshot({ path: testInfo.outputPath('model-setup-tested.png'), fullPage: true });
  await form.getByRole('button', { name: 'Add model' }).click();

  const card = page.getByRole('list', { name: 'Models' }).getByRole('listitem', { name: 'gpt-test-mini' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Key is set');
  await expect(key).toHaveValue('');
  // The key is kept for the server's account (its address), so every model of that server shares it.
  const accountSecret = `HOST_${new URL(server.url).host.replace(/[^0-9A-Za-z]+/g, '_')}_API_KEY`;
  await expect(page.getByText(accountSecret, { exact: true })).toBeVisible();
  // The saved model tests with its saved key; the key itself is never shown.
  await expect(card.getByLabel('API key')).toHaveValue('');
  await card.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(card.getByRole('status')).toContainText(/It works\. gpt-test-mini answered in \d+ ms/);
  await page.screenshot({ path: testInfo.outputPath('model-setup-added.png'), fullPage: true });

  const models = JSON.parse(readFileSync(join(org, 'lemming/config/models.json'), 'utf8'));
  expect(models['gpt-test-mini']).toEqual({
    provider: 'openai-compatible',
    model_name: 'gpt-test-mini',
    provider_config: { base_url: `${server.url}/v1`, api_key_secret: accountSecret },
  });
  // The key went to the server, never into the org folder nor back to the page.
  expect(server.received.at(-1)?.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);
  expect(JSON.stringify(models)).not.toContain(GOOD_KEY);
  for (const call of lemming.calls) expect(JSON.stringify(call.response)).not.toContain(GOOD_KEY);
});
