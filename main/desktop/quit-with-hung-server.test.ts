import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from '../../engine/api/result';
import { openFileSecretStore } from '../../engine/secrets/file-secret-store';
import { trustAsIs } from '../../engine/trust/test-support/trust-as-is';
import { TrustStore } from '../../engine/trust/trust-store';
import { EngineThread } from '../engine-host/engine-thread';
import { engineWorkerOptions } from '../engine-host/engine-worker-environment';
import { createRelay } from '../ipc/dispatch';
import { openAppLog } from './app-log';
import { DesktopApp } from './desktop-app';
import { desktopSettingsIn } from './desktop-settings';
import { recentOrgsIn } from './recent-orgs';
import { recordingShell } from './test-support/recording-shell';
import { until } from '../../test/test-support/until';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const DEMO_ORG = join(REPO_ROOT, 'examples', 'demo-org');
const TEMPLATES = join(REPO_ROOT, 'templates');
const TSX_WORKER = new URL('../engine-host/test-support/tsx-worker.mjs', import.meta.url);
const SILENT_SERVER = join(import.meta.dirname, 'test-support', 'silent-mcp-server.mjs');
const APP_INFO = {
  name: 'LeMMing Desktop',
  version: '0.0.0-test',
  platform: process.platform,
  runtime: { node: process.versions.node, electron: null, chrome: null, sqlite: '3' },
};

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of the program running `script` (a path only this test uses), null when none runs. */
function pidOf(script: string): number | null {
  try {
    const found = execFileSync('pgrep', ['-f', script], { encoding: 'utf8' }).trim().split('\n')[0];
    return found ? Number(found) : null;
  } catch {
    // pgrep exits 1 when nothing matches.
    return null;
  }
}

/** Whether the program still runs: a zombie (ended, not yet reaped by the terminated thread) does not. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe.skipIf(process.platform !== 'linux')('quitting (reads /proc)', () => {
  it('ends within 5 seconds during a run whose MCP server hangs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-quit-'));
    made.push(dir);
    const org = join(dir, 'org');
    // A copy at a path of this test's own, so the program found running is this test's.
    const server = join(dir, 'silent-mcp-server.mjs');
    cpSync(SILENT_SERVER, server);
    cpSync(DEMO_ORG, org, { recursive: true });
    mkdirSync(join(org, 'lemming', 'config'), { recursive: true });
    writeFileSync(
      join(org, 'lemming', 'config', 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          silent: { command: process.execPath, args: [server], start_timeout_ms: 120_000 },
        },
      }),
    );
    const trustFile = join(dir, 'trust.json');
    await trustAsIs(org, new TrustStore(trustFile));

    const secrets = await openFileSecretStore(join(dir, 'secrets.json'));
    if (!secrets.ok) throw new Error(secrets.error);
    const options = engineWorkerOptions({
      entry: new URL('../engine-host/engine-worker.ts', import.meta.url).href,
      appInfo: APP_INFO,
      secretLocation: secrets.value.store.location,
      host: {
        demoOrgSource: DEMO_ORG,
        templatesFolder: TEMPLATES,
        userOrgsFolder: join(dir, 'orgs'),
        trustFile,
        pingIntervalMs: 20,
      },
    });
    let worker!: Worker;
    const engine = await EngineThread.start(
      () => (worker = new Worker(TSX_WORKER, { ...options, env: options.workerData.host.env })),
      {
        secretStore: secrets.value.store,
        trust: new TrustStore(trustFile),
        env: process.env,
        pickFolder: async () => null,
        pickExportFile: async () => null,
        pickImportFile: async () => null,
        openExternal: async () => undefined,
        onEvent: () => undefined,
        logError: () => undefined,
      },
    );
    const dispatch = createRelay({ 'app.info': async () => ok(APP_INFO) }, engine.dispatch);
    const { shell, said } = recordingShell({ ask: 0 });
    const app = new DesktopApp({
      shell,
      dispatch,
      settings: desktopSettingsIn(dir),
      recent: recentOrgsIn(dir),
      log: openAppLog({ folder: join(dir, 'logs'), redact: (text) => text }),
      appInfo: APP_INFO,
      system: { platform: 'linux', release: '6', arch: 'x64' },
      redaction: async () => (text) => text,
      closeEngine: () => engine.dispose(),
      forceCloseEngine: () => engine.terminate(),
    });
    await app.start(['app', org], dir);
    expect((await dispatch('run.start', {})).ok).toBe(true);
    // The tick waits on the server that never answers.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await app.readAttention();
    const serverPid = await until(() => pidOf(server), 'the server program', {
      timeoutMs: 5_000,
      everyMs: 50,
    });

    const started = Date.now();
    expect(await app.quit()).toBe(true);
    const took = Date.now() - started;
    expect(said).toContain('ask: Stop the run and quit?');
    expect(took).toBeLessThan(5_000);
    expect(worker.threadId).toBe(-1);
    // No program of the org outlives the app: the server that ignored every request to end is gone.
    await until(() => !running(serverPid), 'the server program to end', { timeoutMs: 5_000, everyMs: 50 });
  });
});
