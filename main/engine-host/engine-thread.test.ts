import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { MessageChannel, Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../engine/api/result';
import { openFileSecretStore } from '../../engine/secrets/file-secret-store';
import { createRelay, type Dispatch } from '../ipc/dispatch';
import { EngineThread } from './engine-thread';
import { writeJsonlEvents } from './test-support/jsonl-events-file';
import type { EngineWorkerData } from './worker-messages';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const DEMO_ORG = join(REPO_ROOT, 'examples', 'demo-org');
const APP_INFO = {
  name: 'LeMMing Desktop',
  version: '0.0.0-test',
  platform: process.platform,
  runtime: { node: process.versions.node, electron: null, chrome: null, sqlite: '3' },
};

const made: string[] = [];
const threads: EngineThread[] = [];
afterEach(async () => {
  for (const thread of threads.splice(0)) await thread.dispose();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-thread-'));
  made.push(dir);
  return dir;
}

/** The engine in its own thread, as main starts it, with main's relay in front of it. */
async function startEngine(importFile: () => string | null) {
  const dir = tempDir();
  const secrets = await openFileSecretStore(join(dir, 'secrets.json'));
  if (!secrets.ok) throw new Error(secrets.error);
  const workerData: EngineWorkerData = {
    entry: new URL('./engine-worker.ts', import.meta.url).href,
    appInfo: APP_INFO,
    secretLocation: secrets.value.store.location,
    host: {
      demoOrgSource: DEMO_ORG,
      userOrgsFolder: join(dir, 'orgs'),
      trustFile: join(dir, 'trust.json'),
      env: {},
      pingIntervalMs: 20,
    },
  };
  const events: { name: string; payload: unknown }[] = [];
  const worker = new Worker(new URL('./test-support/tsx-worker.mjs', import.meta.url), { workerData });
  const thread = await EngineThread.start(worker, {
    secretStore: secrets.value.store,
    pickFolder: async () => null,
    pickExportFile: async () => null,
    pickImportFile: async () => importFile(),
    onEvent: (name, payload) => events.push({ name, payload }),
    logError: (context, error) => console.error(context, error),
  });
  threads.push(thread);
  const dispatch: Dispatch = createRelay({ 'app.info': async () => ok(APP_INFO) }, thread.dispatch);
  return { dispatch, events, dir };
}

/**
 * Round trips of `app.info` as the renderer makes them: asked from another thread over a message
 * port, so a main thread that is busy shows as a slow answer.
 */
async function probeRoundTrips(dispatch: Dispatch) {
  const { port1: main, port2: renderer } = new MessageChannel();
  main.on('message', (request: { channel: string; input: unknown }) => {
    void dispatch(request.channel, request.input).then((result) => main.postMessage(result));
  });
  const prober = new Worker(new URL('./test-support/ipc-prober.mjs', import.meta.url), {
    workerData: { port: renderer, intervalMs: 5 },
    transferList: [renderer],
  });
  await once(prober, 'message');
  return async (): Promise<number[]> => {
    const report = once(prober, 'message');
    prober.postMessage('stop');
    const [{ roundTrips }] = (await report) as [{ roundTrips: number[] }];
    main.close();
    await prober.terminate();
    return roundTrips;
  };
}

describe('the engine thread', () => {
  it(
    'answers the contract from its own thread: opening an org, a secret set in main, event pings',
    { timeout: 60_000 },
    async () => {
      const { dispatch, events, dir } = await startEngine(() => null);
      const org = join(dir, 'org');
      cpSync(DEMO_ORG, org, { recursive: true });
      expect(await dispatch('org.open', { path: org })).toMatchObject({ ok: true, value: { agentCount: 4 } });
      expect(await dispatch('secrets.set', { name: 'DEMO_KEY', value: 'a-secret-value-1234' })).toEqual(
        ok({ name: 'DEMO_KEY', isSet: true, existed: false }),
      );
      const step = await dispatch('run.step', {});
      expect(step).toMatchObject({ ok: true, value: { report: { tick: 1 } } });
      expect(await dispatch('org.nope', {})).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
      expect(await dispatch('org.open', {})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      await expect.poll(() => events.map((event) => event.name)).toContain('timeline.appended');
      expect(events.map((event) => event.name)).toContain('org.changed');
    },
  );

  it(
    'keeps main answering app.info within 100 ms while it imports 200,000 events',
    { timeout: 300_000 },
    async () => {
      const file = join(tempDir(), 'events.jsonl');
      await writeJsonlEvents(file, 200_000);
      const { dispatch, dir } = await startEngine(() => file);
      const org = join(dir, 'org');
      cpSync(DEMO_ORG, org, { recursive: true });
      expect(await dispatch('org.open', { path: org })).toMatchObject({ ok: true });

      const stopProbing = await probeRoundTrips(dispatch);
      const imported = await dispatch('timeline.import', {});
      const roundTrips = await stopProbing();
      expect(imported).toMatchObject({ ok: true, value: { path: file, imported: 200_000, skippedCount: 0 } });
      expect(roundTrips.length).toBeGreaterThan(10);
      expect(Math.max(...roundTrips)).toBeLessThan(100);
      const search = await dispatch('timeline.page', { text: 'sky', limit: 1 });
      expect(search).toMatchObject({
        ok: true,
        value: { rows: [expect.objectContaining({ kind: expect.any(String) })] },
      });
    },
  );
});
