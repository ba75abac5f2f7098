import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../engine/api/update-schemas';
import { StandInUpdater } from './test-support/stand-in-updater';
import { UpdateController, type UpdateControllerOptions } from './update-controller';
import { describeUpdateError } from './update-errors';
import { hasUpdateSource } from './update-feed';
import { UPDATE_PREFERENCE_FILE, updatePreferenceIn } from './update-preference';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'lemming-updates-'));
  folders.push(made);
  return made;
}

async function controller(updater: UpdateControllerOptions['updater'], userData = folder()) {
  const heard: UpdateStatus[] = [];
  const logged: unknown[] = [];
  const updates = await UpdateController.create({
    updater,
    preference: updatePreferenceIn(userData),
    onChange: (status) => heard.push(status),
    logError: (error) => logged.push(error),
  });
  return { updates, heard, logged, userData };
}

function errorWithCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('UpdateController', () => {
  it('checks on start, downloads in the background and waits for the user before installing', async () => {
    const updater = new StandInUpdater();
    const { updates, heard } = await controller(updater);
    expect(updates.status()).toMatchObject({ enabled: true, state: 'off', offReason: null });

    updates.start();
    expect(updater.checks).toBe(1);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updates.status().state).toBe('checking');

    updater.emit('update-available', { version: '0.2.0' });
    expect(updates.status()).toMatchObject({ state: 'downloading', version: '0.2.0' });
    expect(updates.restartNow()).toEqual({ restarting: false });

    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(updates.status()).toMatchObject({ state: 'ready', version: '0.2.0' });
    expect(updater.installs).toBe(0);
    expect(updates.restartNow()).toEqual({ restarting: true });
    expect(updater.installs).toBe(1);
    expect(heard.map((status) => status.state)).toEqual(['checking', 'downloading', 'ready']);
  });

  it('says when the app is up to date', async () => {
    const updater = new StandInUpdater();
    const { updates } = await controller(updater);
    updates.start();
    updater.emit('update-not-available', { version: '0.1.0' });
    expect(updates.status()).toMatchObject({ state: 'up-to-date', version: null, message: null });
  });

  it('is off in a developer checkout and in a build without an update source, whatever the switch says', async () => {
    for (const off of ['development', 'no-update-source'] as const) {
      const { updates } = await controller({ offBecause: off });
      updates.start();
      expect(updates.status()).toEqual({
        enabled: true,
        state: 'off',
        offReason: off,
        version: null,
        message: null,
      });
      expect(updates.restartNow()).toEqual({ restarting: false });
      expect(await updates.setEnabled(false)).toMatchObject({ enabled: false, state: 'off', offReason: off });
    }
  });

  it('never checks when the user turned updates off, and remembers that for the next start', async () => {
    const userData = folder();
    const first = await controller(new StandInUpdater(), userData);
    expect(await first.updates.setEnabled(false)).toMatchObject({
      enabled: false,
      state: 'off',
      offReason: 'turned-off',
    });
    expect(JSON.parse(readFileSync(join(userData, UPDATE_PREFERENCE_FILE), 'utf8'))).toEqual({
      checkForUpdates: false,
    });

    const updater = new StandInUpdater();
    const next = await controller(updater, userData);
    next.updates.start();
    expect(updater.checks).toBe(0);
    expect(next.updates.status()).toMatchObject({ enabled: false, state: 'off', offReason: 'turned-off' });
  });

  it('turning updates off keeps a downloaded update from installing on quit; turning them on checks again', async () => {
    const updater = new StandInUpdater();
    const { updates } = await controller(updater);
    updates.start();
    updater.emit('update-downloaded', { version: '0.2.0' });

    await updates.setEnabled(false);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updates.restartNow()).toEqual({ restarting: false });
    updater.emit('update-downloaded', { version: '0.3.0' });
    expect(updates.status()).toMatchObject({ state: 'off', version: null });

    await updates.setEnabled(true);
    expect(updater.checks).toBe(2);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updates.status()).toMatchObject({ enabled: true, state: 'checking', offReason: null });
  });

  it('reports an unreachable server as "unavailable" and a broken download as "failed", and logs both', async () => {
    const updater = new StandInUpdater();
    const { updates, logged } = await controller(updater);
    updates.start();
    updater.emit('error', new Error('net::ERR_INTERNET_DISCONNECTED'));
    expect(updates.status()).toMatchObject({
      state: 'unavailable',
      message: expect.stringMatching(/next time it starts/),
    });
    updater.emit('error', new Error('sha512 checksum mismatch, expected abc, got def'));
    expect(updates.status()).toMatchObject({
      state: 'failed',
      message: expect.stringMatching(/sha512 checksum mismatch/),
    });
    expect(logged).toHaveLength(2);
  });

  it('reports a check that rejects without an error event', async () => {
    const updater = new StandInUpdater();
    updater.checkForUpdates = () => Promise.reject(new Error('ENOENT: app-update.yml'));
    const { updates } = await controller(updater);
    updates.start();
    await expect.poll(() => updates.status().state).toBe('failed');
  });
});

describe('describeUpdateError', () => {
  it('tells "nothing published yet" and "no connection" apart from real failures', () => {
    expect(
      describeUpdateError(
        errorWithCode('Unable to find latest version on GitHub', 'ERR_UPDATER_LATEST_VERSION_NOT_FOUND'),
      ),
    ).toEqual({
      state: 'unavailable',
      message: 'No newer version has been published yet.',
    });
    expect(describeUpdateError(errorWithCode('404 Not Found', 'HTTP_ERROR_404')).state).toBe('unavailable');
    expect(describeUpdateError(new Error('net::ERR_NAME_NOT_RESOLVED')).state).toBe('unavailable');
    expect(
      describeUpdateError(
        errorWithCode('New version is not signed by the application owner', 'ERR_UPDATER_INVALID_SIGNATURE'),
      ),
    ).toEqual({
      state: 'failed',
      message:
        'The update could not be checked or downloaded: New version is not signed by the application owner',
    });
  });
});

describe('update preference and feed files', () => {
  it('counts a missing or unreadable preference file as "on"', async () => {
    const userData = folder();
    expect(await updatePreferenceIn(userData).read()).toBe(true);
    writeFileSync(join(userData, UPDATE_PREFERENCE_FILE), '{ not json');
    expect(await updatePreferenceIn(userData).read()).toBe(true);
    writeFileSync(join(userData, UPDATE_PREFERENCE_FILE), JSON.stringify({ checkForUpdates: 'no' }));
    expect(await updatePreferenceIn(userData).read()).toBe(true);
  });

  it('finds an update source only in an app-update.yml that names a provider', async () => {
    const resources = folder();
    expect(await hasUpdateSource(resources)).toBe(false);
    writeFileSync(join(resources, 'app-update.yml'), 'updaterCacheDirName: lemming-desktop-updater\n');
    expect(await hasUpdateSource(resources)).toBe(false);
    writeFileSync(
      join(resources, 'app-update.yml'),
      'owner: someone\nrepo: lemming-desktop\nprovider: github\nupdaterCacheDirName: lemming-desktop-updater\n',
    );
    expect(await hasUpdateSource(resources)).toBe(true);
  });
});
