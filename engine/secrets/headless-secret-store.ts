import type { Result } from '../api/result';
import { envSecretStore } from './env-secret-store';
import { openFileSecretStore } from './file-secret-store';
import { layeredSecretStore } from './layered-secret-store';
import type { SecretStore } from './secret-store';
import { SECRETS_FILE_VARIABLE } from './secrets-file-variable';

export interface HeadlessSecretsOptions {
  /** `--secrets-file`; LEMMING_SECRETS_FILE in `env` when not given. */
  file?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** Orgs the secrets file must be outside of. */
  orgPaths?: readonly string[];
}

export type HeadlessSecretsOpen = Result<
  {
    store: SecretStore;
    warnings: string[];
    /** The secrets file changes go to, or null when there is none. */ file: string | null;
  },
  string
>;

/**
 * The secrets of a run without the app (the CLI, CI): the secrets file named by `--secrets-file` or
 * LEMMING_SECRETS_FILE, over LEMMING_SECRET_* environment variables; only the environment when no
 * file is named (and then nothing can be changed).
 */
export async function openHeadlessSecretStore(options: HeadlessSecretsOptions): Promise<HeadlessSecretsOpen> {
  const environment = envSecretStore(options.env);
  const file = options.file ?? options.env[SECRETS_FILE_VARIABLE];
  if (!file) return { ok: true, value: { store: environment, warnings: [], file: null } };
  const opened = await openFileSecretStore(file, options.orgPaths ? { orgPaths: options.orgPaths } : {});
  if (!opened.ok) return opened;
  return {
    ok: true,
    value: {
      store: layeredSecretStore(opened.value.store, environment),
      warnings: opened.value.warnings,
      file: opened.value.path,
    },
  };
}
