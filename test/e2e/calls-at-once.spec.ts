import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UPSTREAM_FIXTURES, expect, test } from '../harness/lemming-fixture';

// Issue 34: how many calls at once a model's server takes is learned as the org runs, and the model's
// card says it under Advanced.

test("a model's card says under Advanced how many calls at once its server takes, and whether that was learned", async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(join(UPSTREAM_FIXTURES, 'example-org'));
  const modelsFile = join(org, 'lemming/config/models.json');
  const models = JSON.parse(readFileSync(modelsFile, 'utf8'));
  models['gpu-box'] = {
    provider: 'ollama',
    model_name: 'llama3.1',
    provider_config: { base_url: 'http://127.0.0.1:11434' },
  };
  models['held-box'] = {
    provider: 'ollama',
    model_name: 'llama3.1',
    provider_config: { base_url: 'http://127.0.0.1:11435', max_concurrent_calls: 2 },
  };
  writeFileSync(modelsFile, JSON.stringify(models, null, 2));
  // What an earlier run learned of the first server, in the engine's own file.
  mkdirSync(join(org, '.lemming'), { recursive: true });
  writeFileSync(
    join(org, '.lemming/model-servers.json'),
    JSON.stringify({ servers: { 'ollama http://127.0.0.1:11434/': { limit: 37, baseline_ms: 900 } } }),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  await page.getByRole('button', { name: /^Settings/ }).click();
  const cards = page.getByRole('list', { name: 'Models' });

  const learned = cards.getByRole('listitem', { name: 'gpu-box', exact: true });
  await learned.getByText('Advanced', { exact: true }).click();
  await expect(learned).toContainText('Up to 37 calls at once, learned from how the server answered.');
  await learned.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('calls-at-once-learned.png') });

  const held = cards.getByRole('listitem', { name: 'held-box', exact: true });
  await held.getByText('Advanced', { exact: true }).click();
  await expect(held).toContainText('Up to 2 calls at once, as set (max_concurrent_calls).');
});
