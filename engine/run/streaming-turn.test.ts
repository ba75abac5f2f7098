import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressDelta, TurnProgress } from '../api/model-event-schemas';
import { main } from '../cli/main';
import { cliConfigDir, runCli } from '../cli/test-support/run-cli';
import {
  secretSplitEverywhere,
  startStreamingServer,
  type StreamingServer,
  type StreamingServerOptions,
} from '../models/test-support/streaming-server';
import { OrgEngine } from './org-engine';
import { RunController } from './run-controller';
import { resume, tempOrgs } from './test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { runLemmingProcess } from '../cli/test-support/run-cli';
import { envSecretStore } from '../secrets/env-secret-store';
import { createRedactor } from '../secrets/redactor';

const orgs = tempOrgs();
const servers: StreamingServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  orgs.cleanup();
});

async function slowModelOrg(
  options: { stream?: boolean } = {},
  pieces?: readonly string[],
  toolCall?: StreamingServerOptions['toolCall'],
) {
  const server = await startStreamingServer(
    pieces
      ? {
          deltas: pieces.length,
          gapMs: 1,
          piece: (index) => pieces[index]!,
          ...(toolCall ? { toolCall } : {}),
        }
      : { deltas: 50, gapMs: 20 },
  );
  servers.push(server);
  const org = orgs.build({
    'lemming/config/models.json': {
      slow: {
        provider: 'openai-compatible',
        model_name: 'slow',
        ...options,
        provider_config: { base_url: `${server.url}/v1`, max_retries: 0 },
      },
    },
    'agents/writer/resume.json': resume('writer', { model: { key: 'slow' } }),
  });
  return { server, org };
}

function timelineOf(engine: OrgEngine) {
  return engine.timeline
    .page({ direction: 'asc', limit: 1000 })
    .rows.map((row) => JSON.parse(row.json) as Record<string, any>);
}

describe('a streamed turn', () => {
  it('reports the answer piece by piece while it is written, and stores only the whole answer once', async () => {
    const { server, org } = await slowModelOrg();
    const progress: { at: number; progress: TurnProgress }[] = [];
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      onProgress: (piece) => progress.push({ at: performance.now(), progress: piece }),
    });
    try {
      const report = await engine.runTick();
      const turnEnded = performance.now();
      expect(report.turns).toEqual([{ agent: 'writer', status: 'completed' }]);

      expect(progress).toHaveLength(50);
      expect(
        progress
          .map(({ progress: piece }) =>
            piece.deltas.map((delta) => (delta.type === 'text' ? delta.text : '')).join(''),
          )
          .join(''),
      ).toBe(server.text);
      expect(progress[0]!.progress).toMatchObject({
        kind: 'turn_progress',
        agent: 'writer',
        tick: 1,
        round: 1,
        turn: '1:writer',
      });
      // The first piece arrived about a second before the answer was complete.
      expect(turnEnded - progress[0]!.at).toBeGreaterThan(700);

      const events = timelineOf(engine);
      expect(events.filter((event) => event.kind === 'turn_progress')).toEqual([]);
      const calls = events.filter((event) => event.kind === 'model_call');
      expect(calls).toHaveLength(1);
      expect(calls[0]!.response.text).toBe(server.text);
      expect(calls[0]!.usage).toEqual({ inputTokens: 50, outputTokens: 50 });
      expect(events.find((event) => event.kind === 'notes')?.text).toBe(
        server.text.slice('{"notes": "'.length, -'"}'.length),
      );
    } finally {
      engine.close();
    }
  });

  it('is on even when nobody follows the run, and a slow answer is not cut by the call time limit', async () => {
    const { server, org } = await slowModelOrg();
    // 50 pieces 20 ms apart take a second; the limit is on silence, so 300 ms is plenty.
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      limits: { callTimeoutMs: 300 },
    });
    try {
      expect((await engine.runTick()).turns).toEqual([{ agent: 'writer', status: 'completed' }]);
      expect(server.received[0]!.json).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
    } finally {
      engine.close();
    }
  });

  it('is not asked for when models.json says "stream": false', async () => {
    const { server, org } = await slowModelOrg({ stream: false });
    const progress: TurnProgress[] = [];
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      onProgress: (piece) => progress.push(piece),
    });
    try {
      await engine.runTick();
      expect(server.received[0]!.json).not.toHaveProperty('stream');
      expect(progress).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('stopping the run mid-stream closes the HTTP request within 200 ms', async () => {
    const { server, org } = await slowModelOrg();
    const stop = new AbortController();
    const { engine, stopped } = await engineStoppingMidStream(org, () => stop.abort());
    try {
      const report = await engine.runTick(stop.signal);
      expect(report.turns).toEqual([{ agent: 'writer', status: 'failed' }]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.closedAt[0]).toBeGreaterThan(0);
      expect(server.closedAt[0]! - stopped.at).toBeLessThan(200);
      expect(server.finishedAt[0]).toBe(0);
      const error = timelineOf(engine).find((event) => event.kind === 'model_call');
      expect(error?.error).toMatchObject({ error_kind: 'cancelled' });
    } finally {
      engine.close();
    }
  });
});

/** An engine on `org` that calls `stop` when the tenth piece of an answer arrives; `stopped.at` says when. */
async function engineStoppingMidStream(org: string, stop: () => void) {
  const stopped = { at: 0 };
  let pieces = 0;
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
    onProgress: () => {
      pieces += 1;
      if (pieces === 10) {
        stopped.at = performance.now();
        stop();
      }
    },
  });
  return { engine, stopped };
}

describe('the run controller', () => {
  it('Stop cuts off an answer being streamed within 200 ms; the tick ends and the run stops', async () => {
    const { server, org } = await slowModelOrg();
    const holder: { controller: RunController | null } = { controller: null };
    const { engine, stopped } = await engineStoppingMidStream(org, () => holder.controller?.stop());
    try {
      const controller = new RunController(engine);
      holder.controller = controller;
      await controller.refresh();
      controller.start({ tickLimit: 5, intervalMs: 0 });
      await controller.whenIdle();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.closedAt[0]! - stopped.at).toBeLessThan(200);
      expect(server.finishedAt[0]).toBe(0);
      expect(server.received).toHaveLength(1);
      expect(controller.state()).toMatchObject({ phase: 'idle', ended: { reason: 'stopped', atTick: 1 } });
    } finally {
      engine.close();
    }
  });
});

describe('lemming run --follow', () => {
  it('prints the answer as it comes, then the tick', async () => {
    const { server, org } = await slowModelOrg();
    // The model is a server the org names: its person trusts the org first.
    expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
    const writes: { at: number; text: string }[] = [];
    const io = {
      stdout: { write: (text: string) => void writes.push({ at: performance.now(), text }) },
      stderr: { write: () => undefined },
      env: { LEMMING_CONFIG_DIR: cliConfigDir() },
    };
    expect(await main(['run', org, '--follow'], io)).toBe(0);

    const output = writes.map((write) => write.text).join('');
    expect(output).toBe(`[tick 1] writer, model call 1:\n${server.text}\ntick 1: writer completed\n`);
    const textWrites = writes.filter((write) => write.text.startsWith('w'));
    expect(textWrites.length).toBeGreaterThanOrEqual(40);
    // Pieces were printed as they arrived, about 20 ms apart, not all at the end.
    expect(textWrites.at(-1)!.at - textWrites[0]!.at).toBeGreaterThan(600);
  });
});

const STREAMED_SECRET = 'sk-stream-Hq7Rw2Zt9Lp4';
const SECRET_VARIABLES = { LEMMING_SECRET_STREAM_TOKEN: STREAMED_SECRET };
/** The secret as a Basic Authorization header carries it: its base64 spelling. */
const BASIC_SPELLING = Buffer.from(`user:${STREAMED_SECRET}`).toString('base64');

/** What the live text must be: the whole answer as the timeline keeps it, redacted. */
function redactedWhole(server: StreamingServer): string {
  return createRedactor([{ name: 'STREAM_TOKEN', value: STREAMED_SECRET }]).redactText(server.text);
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(STREAMED_SECRET.slice(0, 8));
  expect(text).not.toContain(STREAMED_SECRET.slice(-8));
  expect(text).not.toContain(BASIC_SPELLING.slice(8, 16));
}

describe('a streamed answer that writes a stored secret', () => {
  it('is redacted piece by piece, whole or split at any position, in plain and base64 spelling', async () => {
    const { server, org } = await slowModelOrg({}, secretSplitEverywhere([STREAMED_SECRET, BASIC_SPELLING]));
    const progress: TurnProgress[] = [];
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      secrets: envSecretStore(SECRET_VARIABLES),
      onProgress: (piece) => progress.push(piece),
    });
    try {
      expect((await engine.runTick()).turns).toEqual([{ agent: 'writer', status: 'completed' }]);
      const pieces = progress.flatMap((piece) =>
        piece.deltas.map((delta) => (delta.type === 'text' ? delta.text : '')),
      );
      for (const piece of pieces) expectNoSecret(piece);
      const live = pieces.join('');
      expectNoSecret(live);
      expect(live).toBe(redactedWhole(server));
      expect(live.match(/\[redacted:STREAM_TOKEN\]/g)).toHaveLength(
        STREAMED_SECRET.length + BASIC_SPELLING.length,
      );
    } finally {
      engine.close();
    }
  });

  it("redacts a tool call's arguments as they stream, the secret split at any position, and shows the text before it first", async () => {
    const split = secretSplitEverywhere([STREAMED_SECRET, BASIC_SPELLING]).slice(1, -1);
    const argumentPieces = ['{"query": "', ...split, '"}'];
    const { org } = await slowModelOrg({}, ['Looking it up.'], { name: 'lookup', argumentPieces });
    const deltas: ProgressDelta[] = [];
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      secrets: envSecretStore(SECRET_VARIABLES),
      limits: { maxRounds: 1 },
      onProgress: (piece) => deltas.push(...piece.deltas),
    });
    try {
      await engine.runTick();
      const kinds = deltas.map((delta) => delta.type);
      expect(kinds.indexOf('tool_call')).toBeGreaterThan(kinds.lastIndexOf('text'));
      const text = deltas.map((delta) => (delta.type === 'text' ? delta.text : '')).join('');
      expect(text).toBe('Looking it up.');
      const streamed = deltas
        .map((delta) => (delta.type === 'tool_call' ? (delta.arguments ?? '') : ''))
        .join('');
      expectNoSecret(streamed);
      expect(streamed).toBe(
        createRedactor([{ name: 'STREAM_TOKEN', value: STREAMED_SECRET }]).redactText(
          argumentPieces.join(''),
        ),
      );
    } finally {
      engine.close();
    }
  });

  it(
    'lemming run --follow prints it redacted (the real binary in its own process)',
    { timeout: 60_000 },
    async () => {
      const { server, org } = await slowModelOrg(
        {},
        secretSplitEverywhere([STREAMED_SECRET, BASIC_SPELLING]),
      );
      expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
      const run = await runLemmingProcess(['run', org, '--follow'], undefined, SECRET_VARIABLES);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expectNoSecret(run.stdout);
      expect(run.stdout).toBe(
        `[tick 1] writer, model call 1:\n${redactedWhole(server)}\ntick 1: writer completed\n`,
      );
    },
  );
});
