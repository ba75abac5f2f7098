import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG, ipcHarnesses, valueOf, type IpcHarness } from '../ipc/test-support/ipc-harness';
import { openAppLog } from './app-log';
import { DesktopApp } from './desktop-app';
import { desktopSettingsIn } from './desktop-settings';
import { recentOrgsIn } from './recent-orgs';
import { recordingShell } from './test-support/recording-shell';

const harnesses = ipcHarnesses();
const made: string[] = [];
afterEach(async () => {
  await harnesses.cleanup();
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

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the app as a desktop app, over the real engine', () => {
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

  it('a second launch with a folder that is not an org says so and keeps the window', async () => {
    const harness = await harnesses.create();
    const { shell, said } = recordingShell();
    const app = desktopApp(harness, shell);
    await app.secondLaunch(['/opt/lemming-desktop', join(userData(), 'nothing-here')], '/');
    expect(said[0]).toBe('showWindow');
    expect(said[1]).toMatch(/^error: The org could not be opened: /);
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
