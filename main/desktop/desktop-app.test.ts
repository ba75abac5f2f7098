import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { resume } from '../../engine/run/test-support/temp-org';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BULK_BATCH_SIZE } from '../../engine/timeline/timeline-store';
import { DEMO_ORG, ipcHarnesses, REPO_ROOT, valueOf, type IpcHarness } from '../ipc/test-support/ipc-harness';
import { startSignInServer } from '../../engine/tools/mcp/test-support/sign-in-server';
import { openAppLog } from './app-log';
import { DesktopApp } from './desktop-app';
import { desktopSettingsIn } from './desktop-settings';
import { recentOrgsIn } from './recent-orgs';
import { recordingShell } from './test-support/recording-shell';
import { until } from '../../test/test-support/until';

const harnesses = ipcHarnesses();
const made: string[] = [];
const serving: (() => Promise<void>)[] = [];
const FOLLOW_SIGN_IN = join(REPO_ROOT, 'engine', 'tools', 'mcp', 'test-support', 'follow-sign-in.mjs');
afterEach(async () => {
  await harnesses.cleanup();
  await Promise.all(serving.splice(0).map((close) => close()));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function userData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-desktop-'));
  made.push(dir);
  return dir;
}

function desktopApp(
  harness: IpcHarness,
  shell: ReturnType<typeof recordingShell>['shell'],
  engine: { close?: () => Promise<void>; forceClose?: () => Promise<void> } = {},
) {
  const data = userData();
  const log = openAppLog({ folder: join(data, 'logs'), redact: (text) => text });
  return new DesktopApp({
    shell,
    dispatch: harness.dispatch,
    settings: desktopSettingsIn(data),
    recent: recentOrgsIn(data),
    log,
    appInfo: {
      name: 'LeMMing Desktop',
      version: '0.0.0',
      platform: 'linux',
      runtime: { node: '24', electron: null, chrome: null, sqlite: '3' },
    },
    system: { platform: 'linux', release: '6.1', arch: 'x64' },
    redaction: async () => (text) => text,
    closeEngine: engine.close ?? (async () => undefined),
    forceCloseEngine: engine.forceClose ?? (async () => undefined),
    quitLimitMs: 300,
    settleMs: 5,
  });
}

/** Writes `files` (JSON unless text) into a new org folder. */
function writeOrg(files: Record<string, unknown>): string {
  const org = join(userData(), 'org');
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(org, file)), { recursive: true });
    writeFileSync(join(org, file), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return org;
}

/** An org whose agent `clerk` asks to run a shell command in its first turn (which asks the person first). */
function orgThatAsks(): string {
  return writeOrg({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'lemming/config/approvals.json': { timeout_seconds: 60 },
    'script.json': {
      agents: {
        clerk: [
          { when: { round: 1 }, respond: { tool_calls: [{ tool: 'shell', args: { command: 'echo hi' } }] } },
          { respond: { notes: 'done' } },
        ],
      },
      default: [{ respond: { notes: 'nothing to do' } }],
    },
    'agents/clerk/resume.json': resume('clerk', { permissions: { read_outboxes: [], tools: ['shell'] } }),
    'shared/.keep': '',
  });
}

describe('the app as a desktop app, over the real engine', () => {
  it('tells of an approval waiting once, counts it on the badge, and its Allow button answers it (the parked turn goes on)', async () => {
    const harness = await harnesses.create();
    const org = orgThatAsks();
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    const { shell, notices, state } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.start(['/opt/lemming-desktop'], '/');
    await app.readAttention();

    valueOf(await harness.dispatch('run.start', { ticks: 1 }));
    await until(async () => {
      await app.readAttention();
      return state.badge === 1;
    });
    await until(async () => {
      await app.readAttention();
      return notices.length === 2;
    });
    for (let reading = 0; reading < 3; reading++) await app.readAttention();
    // The turn parked: the tick, and so the one-tick run, ended without it.
    expect(notices.map(({ title, body }) => `${title}: ${body}`)).toEqual([
      'Waiting for your answer: clerk asks before it uses shell.',
      'The run ended: Ran 1 tick, as asked.',
    ]);

    notices[0]!.answers!.allow();
    await until(async () => {
      await app.readAttention();
      return state.badge === 0;
    });
    await until(
      async () =>
        valueOf<{ rows: unknown[] }>(
          await harness.dispatch('timeline.page', {
            kinds: ['turn_completed'],
            agents: ['clerk'],
            direction: 'asc',
            cursor: null,
            limit: 10,
          }),
        ).rows.length === 1,
    );
    expect(notices).toHaveLength(2);
    const answered = valueOf<{ rows: { kind: string; summary: string }[] }>(
      await harness.dispatch('timeline.page', {
        kinds: ['approval_answered'],
        direction: 'asc',
        cursor: null,
        limit: 10,
      }),
    ).rows;
    expect(answered).toHaveLength(1);
  });

  it('a second launch with an org folder brings the window to the front and opens that org', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    const { shell, said, state } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.start(['/opt/lemming-desktop'], '/');

    await app.secondLaunch(['/opt/lemming-desktop', org], '/home/ann');

    expect(said[0]).toBe('showWindow');
    expect(valueOf<{ path: string }>(await harness.dispatch('org.summary', {})).path).toBe(org);
    expect(state.places).toEqual([{ view: 'org' }]);
  });

  it('File → New Org… brings the window to the front and offers the template gallery there', async () => {
    const harness = await harnesses.create();
    const { shell, said, state } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.start(['/opt/lemming-desktop'], '/');

    const file = state.menu.find((item) => item.label === 'File');
    file?.submenu?.find((item) => item.label === 'New Org…')?.click?.();

    expect(said).toEqual(['showWindow', 'offerNewOrg']);
  });

  it('a second launch with a folder that is not an org says so and keeps the window', async () => {
    const harness = await harnesses.create();
    const { shell, said } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.secondLaunch(['/opt/lemming-desktop', join(userData(), 'nothing-here')], '/');
    expect(said[0]).toBe('showWindow');
    expect(said[1]).toMatch(/^error: The org could not be opened: /);
  });

  it('tells of an agent that starts failing once, not at every tick it keeps failing', async () => {
    const harness = await harnesses.create();
    // Port 9 (discard) on loopback: no model server answers there.
    const org = writeOrg({
      'lemming/config/models.json': {
        gone: {
          provider: 'ollama',
          model_name: 'llama3.2',
          provider_config: { base_url: 'http://127.0.0.1:9' },
        },
      },
      'agents/clerk/resume.json': resume('clerk', { model: { key: 'gone' } }),
      'shared/.keep': '',
    });
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    const { shell, notices } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.start(['/opt/lemming-desktop'], '/');
    await app.readAttention();

    for (let tick = 0; tick < 3; tick++) {
      valueOf(await harness.dispatch('run.step', {}));
      await app.readAttention();
    }
    expect(notices.map(({ title }) => title)).toEqual(['clerk is failing']);
    expect(notices[0]?.body).toContain('The model could not be reached');
  });

  it('tells of a run that ended once, keeps the org in Open Recent, and shows it in the tray', async () => {
    const { harness, org } = await harnesses.openDemo();
    await harness.trustOpenOrg();
    const { shell, notices, state } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.start(['/opt/lemming-desktop'], '/');
    app.onEngineEvent('org.changed', { path: org });
    await until(async () => {
      await app.readAttention();
      return state.tray !== null;
    });
    expect(state.tray?.tooltip).toBe('org: stopped');

    valueOf(await harness.dispatch('run.start', { ticks: 1 }));
    await app.readAttention();
    await until(async () => {
      await app.readAttention();
      return notices.length > 0;
    });
    expect(notices.map(({ title }) => title)).toEqual(['The run ended']);
    for (let reading = 0; reading < 3; reading++) await app.readAttention();
    expect(notices).toHaveLength(1);

    notices[0]!.click();
    expect(state.places.at(-1)).toEqual({ view: 'org' });
    const file = state.menu.find((item) => item.label === 'File');
    const recent = file?.submenu?.find((item) => item.label === 'Open Recent');
    expect(recent?.submenu?.map((item) => item.label)).toEqual(['org']);
  });

  it('tells once that an MCP server needs the person to sign in, opens its card, and counts it until signed in', async () => {
    const signInServer = await startSignInServer();
    serving.push(signInServer.close);
    const harness = await harnesses.create();
    const org = writeOrg({
      'lemming/config/mcp.json': { mcpServers: { remote: { url: signInServer.url } } },
      'lemming/config/policy.json': {
        network: { enabled: true, private_hosts: [`127.0.0.1:${new URL(signInServer.url).port}`] },
      },
      'agents/clerk/resume.json': resume('clerk'),
      'shared/.keep': '',
    });
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    const { shell, notices, state } = recordingShell();
    const app = desktopApp(harness, shell);
    harness.host.events.on((name, payload) => app.onEngineEvent(name, payload));
    await app.start(['/opt/lemming-desktop'], '/');
    await app.readAttention();

    // The Tool Store opens: the server starts, and asks for a sign-in.
    valueOf(await harness.dispatch('connectors.list', {}));
    await until(() => notices.length > 0);
    expect(notices.map(({ title, body }) => `${title}: ${body}`)).toEqual([
      'Your org needs you to sign in to remote: Agents cannot use the tools of remote until you sign in. Open its card in the Tool Store to sign in.',
    ]);
    expect(state.badge).toBe(1);
    notices[0]!.click();
    expect(state.places.at(-1)).toEqual({ view: 'tools', server: 'remote' });

    // Still not signed in when the Tool Store looks again: nothing new to tell.
    valueOf(await harness.dispatch('connectors.list', {}));
    for (let reading = 0; reading < 3; reading++) await app.readAttention();
    expect(notices).toHaveLength(1);

    // The person signs in (the browser follows the sign-in page): the server runs, nothing waits.
    const browser = process.env.BROWSER;
    process.env.BROWSER = `${process.execPath} ${FOLLOW_SIGN_IN}`;
    try {
      valueOf(await harness.dispatch('connectors.signIn', { server: 'remote' }));
    } finally {
      if (browser === undefined) delete process.env.BROWSER;
      else process.env.BROWSER = browser;
    }
    await until(() => state.badge === 0);
    expect(notices).toHaveLength(1);
  });

  it('follows a long export on the taskbar, and removes the bar when it ends or is cancelled', async () => {
    const { harness } = await harnesses.openDemo();
    const timeline = harness.host.current()!.engine.timeline;
    timeline.appendMany(Array.from({ length: 4 * BULK_BATCH_SIZE }, (_, n) => ({ kind: 'note', n })));
    const { shell, state } = recordingShell();
    const app = desktopApp(harness, shell);
    harness.host.events.on((name, payload) => app.onEngineEvent(name, payload));
    harness.setExportFile(join(userData(), 'all.jsonl'));

    valueOf(await harness.dispatch('timeline.export', {}));
    expect(state.progress[0]).toBe(0);
    expect(state.progress.at(-1)).toBeNull();
    expect(state.progress.slice(0, -1).every((fraction) => fraction !== null && fraction < 1)).toBe(true);

    state.progress.length = 0;
    let cancelling: Promise<unknown> | null = null;
    harness.host.events.on((name, payload) => {
      if (name === 'job.progress' && !cancelling)
        cancelling = harness.dispatch('jobs.cancel', { id: (payload as { id: string }).id });
    });
    valueOf(await harness.dispatch('timeline.export', {}));
    await cancelling;
    expect(state.progress).toEqual([0, null]);

    // An engine thread started again says no job ended: the org it had open is gone, and the bar with it.
    app.onEngineEvent('job.progress', {
      id: 'lost',
      kind: 'timeline_export',
      done: 5,
      total: 10,
      ended: false,
    });
    app.onEngineEvent('org.changed', { path: null });
    expect(state.progress.slice(-2)).toEqual([0.5, null]);
  });

  it('quitting during a run asks first, and ends the engine after the limit when it does not close', async () => {
    const { harness } = await harnesses.openDemo();
    await harness.trustOpenOrg();
    const { shell, said } = recordingShell({ ask: 0 });
    let forced = false;
    const app = desktopApp(harness, shell, {
      close: () => new Promise(() => undefined),
      forceClose: async () => {
        forced = true;
      },
    });
    await app.start(['/opt/lemming-desktop'], '/');
    valueOf(await harness.dispatch('run.start', { intervalMs: 60_000 }));
    await app.readAttention();

    const started = Date.now();
    expect(await app.quit()).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(forced).toBe(true);
    expect(said).toContain('ask: Stop the run and quit?');
    valueOf(await harness.dispatch('run.stop', {}));
  });

  it('keeps quitting when the person says Cancel', async () => {
    const { harness } = await harnesses.openDemo();
    await harness.trustOpenOrg();
    const { shell } = recordingShell({ ask: 1 });
    const app = desktopApp(harness, shell);
    await app.start(['/opt/lemming-desktop'], '/');
    valueOf(await harness.dispatch('run.start', { intervalMs: 60_000 }));
    await app.readAttention();
    expect(await app.quit()).toBe(false);
    valueOf(await harness.dispatch('run.stop', {}));
  });
});
