import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcHarnesses, valueOf, type IpcHarness } from '../ipc/test-support/ipc-harness';
import { openAppLog } from './app-log';
import { DesktopApp } from './desktop-app';
import { desktopSettingsIn } from './desktop-settings';
import { recentOrgsIn } from './recent-orgs';
import { smokeReportPath, smokeTest } from './smoke-test';
import { recordingShell } from './test-support/recording-shell';

const harnesses = ipcHarnesses();
const made: string[] = [];
afterEach(async () => {
  await harnesses.cleanup();
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The app as the packaged build starts it, over the stand-in shell and the real engine. */
async function startedApp(harness: IpcHarness, developerTools = false) {
  const data = mkdtempSync(join(tmpdir(), 'lemming-smoke-'));
  made.push(data);
  const settings = desktopSettingsIn(data);
  await settings.update({ developerTools });
  const recording = recordingShell();
  const app = new DesktopApp({
    shell: recording.shell,
    dispatch: harness.dispatch,
    settings,
    recent: recentOrgsIn(data),
    log: openAppLog({ folder: join(data, 'logs'), redact: (text) => text }),
    appInfo: {
      name: 'LeMMing Desktop',
      version: '0.0.0',
      platform: 'linux',
      runtime: { node: '24', electron: null, chrome: null, sqlite: '3' },
    },
    system: { platform: 'linux', release: '6.1', arch: 'x64' },
    redaction: async () => (text) => text,
    closeEngine: async () => undefined,
    forceCloseEngine: async () => undefined,
  });
  await app.start(['/opt/lemming-desktop', '--smoke-test=/tmp/report.json'], '/');
  return {
    ...recording,
    steps: {
      shell: recording.shell,
      openOrg: async () => void valueOf(await harness.dispatch('firstRun.openDemo', {})),
      refresh: () => app.readAttention(),
    },
  };
}

describe('the packaged app smoke test (--smoke-test)', () => {
  it('finds the menu without developer tools, a notification shown, and the tray with its menu', async () => {
    const { steps, notices } = await startedApp(await harnesses.create());

    const report = await smokeTest(steps);

    expect(report).toEqual({
      passed: true,
      menu: {
        top: ['File', 'Edit', 'Run', 'View', 'Window', 'Help'],
        missing: [],
        developerTools: false,
      },
      notification: { outcome: 'shown', error: null },
      tray: { created: true, menu: ['LeMMing Demo: stopped', 'Run', 'Open LeMMing Desktop', 'Quit'] },
      error: null,
    });
    expect(notices.map((notice) => notice.title)).toEqual(['LeMMing Desktop']);
  });

  it('fails when the menu offers developer tools', async () => {
    const { steps } = await startedApp(await harnesses.create(), true);
    const report = await smokeTest(steps);
    expect(report.passed).toBe(false);
    expect(report.menu.developerTools).toBe(true);
  });

  it('fails, saying why, when a notification cannot be shown or the org cannot be opened', async () => {
    const { steps } = await startedApp(await harnesses.create());
    const report = await smokeTest({
      ...steps,
      shell: { ...steps.shell, notify: async () => Promise.reject(new Error('no notification server')) },
      openOrg: async () => Promise.reject(new Error('the demo org is missing')),
    });
    expect(report).toMatchObject({
      passed: false,
      notification: { outcome: 'failed', error: 'no notification server' },
      tray: { created: false, menu: [] },
      error: 'the demo org is missing',
    });
  });

  it('is asked for with --smoke-test=<report file>', () => {
    expect(smokeReportPath(['/opt/app', '--smoke-test=/tmp/smoke.json'])).toBe('/tmp/smoke.json');
    expect(smokeReportPath(['/opt/app', '/home/ann/org'])).toBeNull();
    expect(smokeReportPath(['/opt/app', '--smoke-test='])).toBeNull();
  });
});
