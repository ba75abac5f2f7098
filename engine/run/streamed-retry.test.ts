import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressDelta, TurnProgress } from '../api/model-event-schemas';
import { main } from '../cli/main';
import { cliConfigDir, runCli } from '../cli/test-support/run-cli';
import { startLoopbackServer, type LoopbackServer } from '../models/test-support/loopback-server';
import { OrgEngine } from './org-engine';
import { resume, tempOrgs } from './test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const orgs = tempOrgs();
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  orgs.cleanup();
});

const sse = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] })}\n\n`;

async function write(response: ServerResponse, contentType: string, pieces: readonly string[]) {
  response.writeHead(200, { 'content-type': contentType });
  for (const piece of pieces) {
    response.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  response.end();
}

/** An org whose writer is on the model server at `baseUrl`, tried once more when a call fails. */
function writerOn(provider: string, baseUrl: string): string {
  return orgs.build({
    'lemming/config/models.json': {
      m: { provider, model_name: 'm', provider_config: { base_url: baseUrl, max_retries: 1 } },
    },
    'agents/writer/resume.json': resume('writer', { model: { key: 'm' } }),
  });
}

async function orgWithModel(provider: string, baseUrl: string) {
  const org = writerOn(provider, baseUrl);
  const progress: TurnProgress[] = [];
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
    onProgress: (piece) => progress.push(piece),
  });
  return { engine, progress };
}

/** The live text as the app shows it: pieces added up, and a restart starting it afresh. */
function shownText(progress: readonly TurnProgress[]): string {
  return progress
    .flatMap((piece) => piece.deltas)
    .reduce(
      (text: string, delta: ProgressDelta) =>
        delta.type === 'restart' ? '' : delta.type === 'text' ? text + delta.text : text,
      '',
    );
}

function modelCalls(engine: OrgEngine) {
  return engine.timeline
    .page({ kinds: ['model_call'], direction: 'asc', limit: 100 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

/** A model server whose first answer breaks off (no finish reason) and whose second is whole. */
async function brokenThenWhole(): Promise<LoopbackServer> {
  const server = await startLoopbackServer((_request, response, index) =>
    index === 0
      ? write(response, 'text/event-stream', [sse({ content: '{"notes": "wro' }), sse({ content: 'ng' })])
      : write(response, 'text/event-stream', [
          sse({ content: '{"notes": "ri' }),
          sse({ content: 'ght"}' }),
          sse({}, 'stop'),
          'data: [DONE]\n\n',
        ]),
  );
  servers.push(server);
  return server;
}

describe('a streamed answer that is tried again', () => {
  it('tells the live text to start again, so the person sees only the answer that was kept', async () => {
    const server = await brokenThenWhole();
    const { engine, progress } = await orgWithModel('openai-compatible', `${server.url}/v1`);
    try {
      expect((await engine.runTick()).turns).toEqual([{ agent: 'writer', status: 'completed' }]);
      expect(server.received).toHaveLength(2);
      expect(progress.flatMap((piece) => piece.deltas)).toContainEqual({ type: 'restart' });
      expect(shownText(progress)).toBe('{"notes": "right"}');
      expect(modelCalls(engine)[0]!.response.text).toBe('{"notes": "right"}');
    } finally {
      engine.close();
    }
  });

  it('an Ollama line that is not JSON is read past, and the model_call event says so', async () => {
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const server = await startLoopbackServer((_request, response) =>
      write(response, 'application/x-ndjson', [
        line({ message: { content: '{"notes": "he' } }),
        'not json\n',
        line({ message: { content: 'llo"}' } }),
        line({ message: { content: '' }, done: true, done_reason: 'stop' }),
      ]),
    );
    servers.push(server);
    const { engine } = await orgWithModel('ollama', server.url);
    try {
      expect((await engine.runTick()).turns).toEqual([{ agent: 'writer', status: 'completed' }]);
      const [call] = modelCalls(engine);
      expect(call!.response.text).toBe('{"notes": "hello"}');
      expect(call!.warnings).toEqual([
        "Ollama sent a line of its answer that is not JSON; it was skipped, as Ollama's own client skips it: not json",
      ]);
    } finally {
      engine.close();
    }
  });

  it('lemming run --follow says that what it printed broke off, then prints the new answer', async () => {
    const server = await brokenThenWhole();
    const org = writerOn('openai-compatible', `${server.url}/v1`);
    expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
    let output = '';
    const io = {
      stdout: { write: (text: string) => void (output += text) },
      stderr: { write: () => undefined },
      env: { LEMMING_CONFIG_DIR: cliConfigDir() },
    };
    expect(await main(['run', org, '--follow'], io)).toBe(0);
    expect(output).toBe(
      '[tick 1] writer, model call 1:\n{"notes": "wrong\n(that answer broke off; the model is asked again)\n{"notes": "right"}\ntick 1: writer completed\n',
    );
  });
});
