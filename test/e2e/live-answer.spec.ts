import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { startLoopbackServer, type LoopbackServer } from '../../engine/models/test-support/loopback-server';
import {
  contractPieces,
  startStreamingServer,
  type StreamingServer,
} from '../../engine/models/test-support/streaming-server';
import { DEMO_ORG, expect, test, type LemmingHarness } from '../harness/lemming-fixture';

let server: StreamingServer | LoopbackServer | null = null;
test.afterEach(async () => {
  await server?.close();
  server = null;
});

/** The demo org with its writer on a slow streaming model server: 50 pieces, 20 ms apart. */
async function openOrgWithSlowWriter(lemming: LemmingHarness): Promise<StreamingServer> {
  const slow = await startStreamingServer({ deltas: 50, gapMs: 20 });
  await openOrgWithWriterOn(lemming, slow.url, 0);
  return slow;
}

/** The demo org, opened, with its writer on the OpenAI-compatible server at `url`. */
async function openOrgWithWriterOn(lemming: LemmingHarness, url: string, maxRetries: number): Promise<void> {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const modelsFile = join(org, 'lemming/config/models.json');
  const models = JSON.parse(readFileSync(modelsFile, 'utf8'));
  models.slow = {
    provider: 'openai-compatible',
    model_name: 'slow-local',
    provider_config: { base_url: `${url}/v1`, max_retries: maxRetries },
  };
  writeFileSync(modelsFile, JSON.stringify(models, null, 2));
  const resumeFile = join(org, 'agents/writer/resume.json');
  const resume = JSON.parse(readFileSync(resumeFile, 'utf8'));
  writeFileSync(resumeFile, JSON.stringify({ ...resume, model: { key: 'slow' } }, null, 2));
  await lemming.trustAsIs(org);
  lemming.setPickedFolder(org);
  await lemming.gotoApp();
  await lemming.page.getByRole('button', { name: 'Choose org folder…' }).click();
  await expect(lemming.page.getByRole('heading', { name: 'Org', exact: true })).toBeVisible();
}

/**
 * Writes `pieces` as OpenAI chunks, `gapMs` apart, then the finish reason and [DONE]; or, to break off,
 * stays silent for `breakAfterMs` and ends there.
 */
async function streamChunks(
  response: ServerResponse,
  pieces: string[],
  gapMs: number,
  ending: { finish: true } | { breakAfterMs: number },
) {
  const chunk = (delta: object, finish_reason: string | null = null) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const content of pieces) {
    if (response.destroyed) return;
    response.write(chunk({ content }));
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  if ('breakAfterMs' in ending) await new Promise((resolve) => setTimeout(resolve, ending.breakAfterMs));
  response.end('finish' in ending ? `${chunk({}, 'stop')}data: [DONE]\n\n` : '');
}

test('the agent node shows the answer as the model writes it, before the turn ends', async ({
  lemming,
}, testInfo) => {
  server = await openOrgWithSlowWriter(lemming);
  const { page } = lemming;
  const live = page.getByTestId('org-graph').locator('[data-live-answer="writer"]');

  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(live).toContainText('w5');
  // Part of the answer, shown while the turn was still going (the whole one ends in "w47 \"}").
  // Read together: the screenshot below can take longer than the rest of the turn on a busy machine.
  const shown = await live.textContent();
  const endedBeforeShown = lemming.events.some(
    (event) =>
      event.name === 'turn.progress' && (event.payload as { ended: string[] }).ended.includes('writer'),
  );
  expect(shown).not.toContain('w47');
  expect(endedBeforeShown).toBe(false);
  await page.screenshot({ path: testInfo.outputPath('agent-node-live-answer.png') });

  // When the turn commits the live text goes; the whole answer is one model_call in the timeline.
  await expect(live).toHaveCount(0, { timeout: 10_000 });
  const calls = await page.evaluate(async () => {
    const answer = await window.lemming.timeline.page({
      kinds: ['model_call'],
      agents: ['writer'],
      limit: 10,
    });
    return answer.ok ? answer.value.rows.length : -1;
  });
  expect(calls).toBe(1);
  const pieces = lemming.events.filter((event) => event.name === 'turn.progress').length;
  // Pieces travel in batches, not one message per piece.
  expect(pieces).toBeLessThan(50);
});

test("the agent's page shows the whole answer being written", async ({ lemming }, testInfo) => {
  server = await openOrgWithSlowWriter(lemming);
  const { page } = lemming;
  await page.getByTestId('org-graph').getByRole('button', { name: 'Open agent writer' }).click();
  await expect(page.getByRole('form', { name: 'Resume of writer' })).toBeVisible();

  await page.getByRole('button', { name: 'Step one tick' }).click();
  const panel = page.getByRole('region', { name: 'What writer is writing now' });
  await expect(panel).toContainText('{"notes": "w0 w1');
  expect(await panel.locator('pre').textContent()).not.toContain('w47');
  await page.screenshot({ path: testInfo.outputPath('agent-page-live-answer.png') });
  await expect(panel).toHaveCount(0, { timeout: 10_000 });
});

test('an answer that broke off and is asked again shows only the new answer, not the broken one', async ({
  lemming,
}, testInfo) => {
  // The first answer stops before its end (no finish reason): the call is tried again.
  const broken = ['{"notes": "', ...Array.from({ length: 20 }, (_, index) => `BROKEN${index} `)];
  server = await startLoopbackServer((_request, response, index) =>
    index === 0
      ? // Held open a while, so the broken answer is on screen before the call is tried again.
        streamChunks(response, broken, 20, { breakAfterMs: 1500 })
      : streamChunks(response, contractPieces(60), 25, { finish: true }),
  );
  await openOrgWithWriterOn(lemming, server.url, 1);
  const { page } = lemming;
  const live = page.getByTestId('org-graph').locator('[data-live-answer="writer"]');

  await page.getByRole('button', { name: 'Step one tick' }).click();
  await expect(live).toContainText('BROKEN5');
  // The new answer is being written, and the broken one is gone from it.
  await expect(live).toContainText('w3 ');
  const shown = await live.textContent();
  expect(shown).not.toContain('BROKEN');
  expect(shown).not.toContain('w57');
  await page.screenshot({ path: testInfo.outputPath('agent-node-live-answer-after-retry.png') });
  await expect(live).toHaveCount(0, { timeout: 10_000 });
  expect((server as LoopbackServer).received).toHaveLength(2);
});
