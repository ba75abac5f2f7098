import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openSafeStorageSecretStore,
  SECRETS_FILE_NAME,
  type SafeStorageLike,
} from './safe-storage-secret-store';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function userData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-userdata-'));
  made.push(dir);
  return dir;
}

/**
 * Electron's safeStorage stood in for by a reversible cipher with the same API: a "v10" prefix (as
 * Chromium's OSCrypt writes), the key's id, then the bytes rotated by the key. A store opened with
 * another key cannot decrypt, as when the OS keyring changes. What is substituted is Electron, not our code.
 */
function cipherStorage(
  backend: string,
  options: { available?: boolean; key?: number } = {},
): SafeStorageLike {
  const key = options.key ?? 91;
  const failure = () =>
    new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (plain) =>
      Buffer.concat([
        Buffer.from('v10'),
        Buffer.from([key]),
        Buffer.from(Buffer.from(plain, 'utf8').map((byte) => (byte + key) % 256)),
      ]),
    decryptString: (encrypted) => {
      if (encrypted.subarray(0, 3).toString() !== 'v10' || encrypted[3] !== key) throw failure();
      return Buffer.from(encrypted.subarray(4).map((byte) => (byte - key + 256) % 256)).toString('utf8');
    },
    getSelectedStorageBackend: () => backend,
  };
}

async function open(safeStorage: SafeStorageLike, path: string, platform: NodeJS.Platform = 'linux') {
  const opened = await openSafeStorageSecretStore({
    safeStorage,
    userDataPath: path,
    platform,
    clock: () => new Date('2026-02-02T00:00:00Z'),
  });
  if (!opened.ok) throw new Error(opened.error);
  return opened.value.store;
}

describe('safeStorage secret store', () => {
  it('keeps only ciphertext on disk, owner-only, and gives the value back', async () => {
    const folder = userData();
    const store = await open(cipherStorage('gnome_libsecret'), folder);
    expect(await store.set('OPENAI_API_KEY', 'sk-proj-plaintext-value')).toEqual({
      ok: true,
      value: { existed: false },
    });
    const file = join(folder, SECRETS_FILE_NAME);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-proj-plaintext-value');
    expect(JSON.parse(text).secrets.OPENAI_API_KEY).toEqual({
      ciphertext: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/),
      updated_at: '2026-02-02T00:00:00.000Z',
    });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await store.reveal('OPENAI_API_KEY')).toBe('sk-proj-plaintext-value');
    expect(await store.list()).toEqual([
      { name: 'OPENAI_API_KEY', updatedAt: '2026-02-02T00:00:00.000Z', source: 'safe_storage' },
    ]);
  });

  it('refuses to store on Linux when the backend is basic_text, saying why and what to do, and writes nothing', async () => {
    const folder = userData();
    const store = await open(cipherStorage('basic_text'), folder);
    const availability = await store.availability();
    expect(availability).toEqual({
      canStore: false,
      reason: expect.stringMatching(/no keyring is available on this Linux desktop.*key built into the app/),
      fix: expect.stringMatching(/GNOME Keyring .* or KWallet/),
    });
    const refused = await store.set('TOKEN', 'value-never-written');
    expect(refused).toMatchObject({
      ok: false,
      error: { reason: expect.stringMatching(/no keyring/), fix: expect.stringMatching(/keyring/) },
    });
    expect(() => readFileSync(join(folder, SECRETS_FILE_NAME))).toThrow();
  });

  it('refuses while the Linux backend is still unknown, and when encryption is unavailable on any platform', async () => {
    expect(await (await open(cipherStorage('unknown'), userData())).set('A_KEY', 'value')).toMatchObject({
      ok: false,
      error: { reason: expect.stringMatching(/not been chosen yet/) },
    });
    const mac = await open(cipherStorage('ignored', { available: false }), userData(), 'darwin');
    expect(await mac.set('A_KEY', 'value')).toMatchObject({
      ok: false,
      error: { fix: expect.stringMatching(/keychain/) },
    });
  });

  it('ignores the backend name outside Linux, where Electron does not report one', async () => {
    const store = await open(cipherStorage('basic_text'), userData(), 'win32');
    expect(await store.set('A_KEY', 'value-1234')).toMatchObject({ ok: true });
  });

  it('still lists and deletes secrets when it cannot encrypt, and reveals nothing it cannot decrypt', async () => {
    const folder = userData();
    await (await open(cipherStorage('kwallet5'), folder)).set('OLD_KEY', 'old-value');
    const withoutKeyring = await open(cipherStorage('basic_text', { key: 7 }), folder);
    expect((await withoutKeyring.list()).map((info) => info.name)).toEqual(['OLD_KEY']);
    expect(await withoutKeyring.reveal('OLD_KEY')).toBeUndefined();
    expect(await withoutKeyring.delete('OLD_KEY')).toEqual({ ok: true, value: { existed: true } });
  });

  it('reports an unreadable secrets file with its place', async () => {
    const folder = userData();
    writeFileSync(join(folder, SECRETS_FILE_NAME), '{"secrets": ');
    const opened = await openSafeStorageSecretStore({
      safeStorage: cipherStorage('kwallet5'),
      userDataPath: folder,
      platform: 'linux',
    });
    expect(opened).toMatchObject({
      ok: false,
      error: expect.stringMatching(/secrets\.json:1:13: invalid JSON/),
    });
  });
});
