import { join } from 'node:path';
import type { Result } from '../../engine/api/result';
import { JsonSecretFile } from '../../engine/secrets/json-secret-file';
import { jsonSecretStore } from '../../engine/secrets/json-secret-store';
import type { SecretStore, StoreAvailability } from '../../engine/secrets/secret-store';

/** The part of Electron's `safeStorage` this store uses; main passes the real one, tests a stand-in cipher. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron: which keyring encrypts (`gnome_libsecret`, `kwallet5`, ... or `basic_text`). */
  getSelectedStorageBackend?(): string;
}

export interface SafeStorageSecretStoreOptions {
  safeStorage: SafeStorageLike;
  /** Electron's `app.getPath('userData')`: outside every org folder. */
  userDataPath: string;
  platform?: NodeJS.Platform;
  clock?: () => Date;
}

export const SECRETS_FILE_NAME = 'secrets.json';

/** The store and what was skipped in its file, or why the file cannot be read. */
export type SafeStorageSecretStoreOpen = Result<{ store: SecretStore; warnings: string[] }, string>;

/**
 * The app's secret store: values encrypted with Electron's safeStorage (the OS keychain's key) and kept
 * as base64 ciphertext in `<userData>/secrets.json`. It refuses to store when no real encryption is
 * available, including Linux's `basic_text` backend, whose key is built into Chromium and protects
 * nothing; names and dates stay listable either way.
 */
export async function openSafeStorageSecretStore(
  options: SafeStorageSecretStoreOptions,
): Promise<SafeStorageSecretStoreOpen> {
  const { safeStorage } = options;
  const platform = options.platform ?? process.platform;
  const file = new JsonSecretFile(join(options.userDataPath, SECRETS_FILE_NAME), 'ciphertext');
  const read = await file.read();
  if (!read.ok) return read;
  const store = jsonSecretStore({
    file,
    source: 'safe_storage',
    ...(options.clock ? { clock: options.clock } : {}),
    codec: {
      availability: async () => encryptionAvailability(safeStorage, platform),
      encode: async (value) => safeStorage.encryptString(value).toString('base64'),
      decode: async (payload) => {
        try {
          return safeStorage.decryptString(Buffer.from(payload, 'base64'));
        } catch {
          return undefined;
        }
      },
    },
  });
  return { ok: true, value: { store, warnings: read.value.warnings } };
}

const KEYRING_FIX =
  'install and unlock a keyring: GNOME Keyring (packages gnome-keyring and libsecret-1-0) or KWallet, then restart LeMMing Desktop';

/** Whether safeStorage can protect a secret here, and if not, why and what to do, in the user's words. */
export function encryptionAvailability(
  safeStorage: SafeStorageLike,
  platform: NodeJS.Platform,
): StoreAvailability {
  const backend = platform === 'linux' ? safeStorage.getSelectedStorageBackend?.() : undefined;
  if (backend === 'basic_text') {
    return {
      canStore: false,
      reason:
        'no keyring is available on this Linux desktop, so secrets could only be encrypted with a key built into the app, which anyone who can read your files could undo; LeMMing Desktop does not store secrets that way',
      fix: KEYRING_FIX,
    };
  }
  if (backend === 'unknown') {
    return {
      canStore: false,
      reason: 'the keyring has not been chosen yet (the app is still starting)',
      fix: 'try again in a moment',
    };
  }
  if (!safeStorage.isEncryptionAvailable()) {
    return {
      canStore: false,
      reason: 'this computer offers the app no way to encrypt secrets (Electron safeStorage is unavailable)',
      fix:
        platform === 'linux'
          ? KEYRING_FIX
          : platform === 'darwin'
            ? 'unlock your login keychain, then restart LeMMing Desktop'
            : 'restart LeMMing Desktop; if this persists, sign in to Windows with your own account',
    };
  }
  return { canStore: true };
}
