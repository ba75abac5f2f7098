import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import { chatCompletion as completion } from '../models/test-support/chat-completion';
import { resume } from './test-support/temp-org';
import { engineWorld } from './test-support/engine-world';

const world = engineWorld();
const { orgs } = world;

async function orgOfThree() {
  const server = await startLoopbackServer(async (request, response) => {
    const agent = /You are (w\d)/.exec(request.body)?.[1] ?? 'unknown';
    sendJson(
      response,
      200,
      completion(
        JSON.stringify({
          outbox_entries: [{ kind: 'status', payload: { text: `done by ${agent}` } }],
          notes: `notes of ${agent}`,
        }),
      ),
    );
  });
  world.serve(server);
  const org = orgs.build({
    'lemming/config/models.json': {
      scripted: {
        provider: 'openai-compatible',
        model_name: 'scripted',
        provider_config: { base_url: `${server.url}/v1`, timeout_ms: 10_000 },
      },
    },
    'agents/w1/resume.json': resume('w1'),
    'agents/w2/resume.json': resume('w2'),
    'agents/w3/resume.json': resume('w3'),
  });
  return { org, engine: await world.open(org) };
}

describe('a file write that fails after a turn is committed', () => {
  it('fails that agent’s turn with a plain reason, and the other agents and the next tick go on', async () => {
    const { org, engine } = await orgOfThree();
    // A file where w2's logs folder should be: every write of w2's log files fails, as on a read-only folder.
    rmSync(join(org, 'agents/w2/logs'), { recursive: true, force: true });
    writeFileSync(join(org, 'agents/w2/logs'), 'not a folder');

    const report = await engine.runTick();

    expect(report.turns).toEqual([
      { agent: 'w1', status: 'completed' },
      { agent: 'w2', status: 'failed' },
      { agent: 'w3', status: 'completed' },
    ]);
    const errors = engine.timeline.db
      .prepare("SELECT agent, json FROM events WHERE kind = 'error' AND tick = 1")
      .all() as { agent: string; json: string }[];
    // One error for each of w2's log files (its activity log and its structured log).
    expect(errors.map((error) => error.agent)).toEqual(['w2', 'w2']);
    for (const error of errors)
      expect(JSON.parse(error.json)).toMatchObject({
        reason: 'file_write_failed',
        message: expect.stringMatching(
          /^could not write to agents\/w2\/logs\/\S+: a file is in the way of a folder$/,
        ),
        failure: { kind: 'unwritable', folder: 'agents/w2/logs', detail: 'a file is in the way of a folder' },
      });
    // The write stays owed: the next start performs it once the folder is there.
    expect(
      engine.timeline.db
        .prepare("SELECT count(*) FROM pending_files WHERE path LIKE 'agents/w2/logs/%'")
        .pluck()
        .get(),
    ).toBeGreaterThan(0);

    const next = await engine.runTick();
    expect(next.turns.map((turn) => turn.agent)).toEqual(['w1', 'w2', 'w3']);
  });

  it('still owed at the next start, is a warning, and the org runs', async () => {
    const { org, engine } = await orgOfThree();
    rmSync(join(org, 'agents/w2/logs'), { recursive: true, force: true });
    writeFileSync(join(org, 'agents/w2/logs'), 'not a folder');
    await engine.runTick();
    world.close(engine);

    const reopened = await world.open(org);
    const warnings = reopened.timeline.db
      .prepare("SELECT json FROM events WHERE kind = 'warning'")
      .pluck()
      .all() as string[];
    expect(warnings.map((json) => JSON.parse(json) as { code: string; message: string })).toContainEqual({
      kind: 'warning',
      code: 'file_write_failed',
      message: expect.stringMatching(
        /^could not write to agents\/w2\/logs\/\S+: a file is in the way of a folder$/,
      ),
      time: expect.any(String),
    });
    const report = await reopened.runTick();
    expect(report.turns).toEqual([
      { agent: 'w1', status: 'completed' },
      { agent: 'w2', status: 'failed' },
      { agent: 'w3', status: 'completed' },
    ]);
  });
});
