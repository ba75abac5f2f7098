import type { SecretInfo, SecretStore } from './secret-store';

/**
 * Two stores seen as one: reads look in `primary` first, then in `fallback`; changes go to `primary`.
 * The CLI uses it for a secrets file over LEMMING_SECRET_* variables, so the file wins when both name
 * a secret.
 */
export function layeredSecretStore(primary: SecretStore, fallback: SecretStore): SecretStore {
  return {
    location: `${primary.location}, then ${fallback.location}`,
    availability: () => primary.availability(),
    async list(): Promise<SecretInfo[]> {
      const [first, second] = await Promise.all([primary.list(), fallback.list()]);
      const names = new Set(first.map((info) => info.name));
      return [...first, ...second.filter((info) => !names.has(info.name))].sort((a, b) =>
        a.name < b.name ? -1 : 1,
      );
    },
    async has(name) {
      return (await primary.has(name)) || fallback.has(name);
    },
    set: (name, value) => primary.set(name, value),
    delete: (name) => primary.delete(name),
    async reveal(name) {
      return (await primary.reveal(name)) ?? fallback.reveal(name);
    },
  };
}
