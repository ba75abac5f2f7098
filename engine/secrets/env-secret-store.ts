import { SecretName } from '../api/secret-name';
import type { SecretChange, SecretInfo, SecretStore } from './secret-store';

/**
 * Secrets from the environment carry this prefix (`LEMMING_SECRET_GITHUB_TOKEN` is the secret
 * GITHUB_TOKEN), so that only variables meant as secrets become secrets, not the whole environment.
 */
export const SECRET_VARIABLE_PREFIX = 'LEMMING_SECRET_';

/** Read-only secrets from environment variables, for CI and headless runs. */
export function envSecretStore(env: Readonly<Record<string, string | undefined>>): SecretStore {
  const values = new Map<string, string>();
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith(SECRET_VARIABLE_PREFIX) || !value) continue;
    const name = variable.slice(SECRET_VARIABLE_PREFIX.length);
    if (SecretName.safeParse(name).success) values.set(name, value);
  }
  const readOnly = async (name: string): Promise<SecretChange> => ({
    ok: false,
    error: {
      reason: 'secrets from environment variables cannot be changed from here',
      fix: `change the environment variable ${SECRET_VARIABLE_PREFIX}${name}, or keep your secrets in a secrets file (--secrets-file or LEMMING_SECRETS_FILE)`,
    },
  });
  return {
    location: `environment variables starting with ${SECRET_VARIABLE_PREFIX}`,
    availability: async () => ({
      canStore: false,
      reason: 'secrets from environment variables are read-only',
      fix: 'give a secrets file with --secrets-file or LEMMING_SECRETS_FILE',
    }),
    list: async (): Promise<SecretInfo[]> =>
      [...values.keys()].sort().map((name) => ({ name, updatedAt: null, source: 'environment' })),
    has: async (name) => values.has(name),
    set: readOnly,
    delete: readOnly,
    reveal: async (name) => values.get(name),
  };
}
