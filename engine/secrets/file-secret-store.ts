import type { Result } from '../api/result';
import { JsonSecretFile } from './json-secret-file';
import { jsonSecretStore } from './json-secret-store';
import type { SecretStore } from './secret-store';
import { checkSecretsFileLocation } from './secrets-file-location';

/** The store, its file and what was skipped in it, or why it cannot be opened. */
export type FileSecretStoreOpen = Result<{ store: SecretStore; path: string; warnings: string[] }, string>;

export interface FileSecretStoreOptions {
  /** Org folders the file must not be inside (any folder above it that looks like an org is refused too). */
  orgPaths?: readonly string[];
  clock?: () => Date;
}

/**
 * The CLI's and the tests' secret store: a JSON file the user names (`--secrets-file` or
 * LEMMING_SECRETS_FILE), values in plain text protected by the file's owner-only mode. Refused inside
 * an org folder; a missing file is an empty store, created at the first `set`.
 */
export async function openFileSecretStore(
  path: string,
  options: FileSecretStoreOptions = {},
): Promise<FileSecretStoreOpen> {
  const location = await checkSecretsFileLocation(path, options.orgPaths);
  if (!location.ok) return location;
  const file = new JsonSecretFile(location.value, 'value');
  const read = await file.read();
  if (!read.ok) return read;
  const store = jsonSecretStore({
    file,
    source: 'file',
    ...(options.clock ? { clock: options.clock } : {}),
    codec: {
      availability: async () => ({ canStore: true }),
      encode: async (value) => value,
      decode: async (payload) => payload,
    },
  });
  return { ok: true, value: { store, path: location.value, warnings: read.value.warnings } };
}
