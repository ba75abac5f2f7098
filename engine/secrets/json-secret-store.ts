import type { JsonSecretFile } from './json-secret-file';
import { secretNameProblem } from './secret-name';
import type { SecretChange, SecretInfo, SecretSource, SecretStore, StoreAvailability } from './secret-store';

/** How values are kept in the file: as they are (CLI) or encrypted (the app's safeStorage). */
export interface SecretCodec {
  availability(): Promise<StoreAvailability>;
  /** Only called when `availability` says values can be stored. */
  encode(value: string): Promise<string>;
  /** undefined when the payload cannot be turned back into the value (e.g. the OS key changed). */
  decode(payload: string): Promise<string | undefined>;
}

export interface JsonSecretStoreOptions {
  file: JsonSecretFile;
  source: SecretSource;
  codec: SecretCodec;
  clock?: () => Date;
}

/**
 * A SecretStore over a JSON secrets file. Reading a file that has become unreadable or invalid since
 * it was opened throws an Error naming the file and the place; changes return refusals as values.
 */
export function jsonSecretStore({
  file,
  source,
  codec,
  clock = () => new Date(),
}: JsonSecretStoreOptions): SecretStore {
  const secrets = async () => {
    const read = await file.read();
    if (!read.ok) throw new Error(read.error);
    return read.value.secrets;
  };
  const refusal = (reason: string, fix?: string): SecretChange => ({
    ok: false,
    error: { reason, ...(fix ? { fix } : {}) },
  });

  return {
    location: `the secrets file ${file.path}`,
    availability: () => codec.availability(),
    async list(): Promise<SecretInfo[]> {
      return [...(await secrets())]
        .map(([name, stored]) => ({ name, updatedAt: stored.updatedAt, source }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    async has(name) {
      return (await secrets()).has(name);
    },
    async set(name, value) {
      const nameProblem = secretNameProblem(name);
      if (nameProblem) return refusal(nameProblem);
      if (value === '')
        return refusal('a secret value must not be empty', `to remove ${name}, delete it instead`);
      const availability = await codec.availability();
      if (!availability.canStore) return refusal(availability.reason, availability.fix);
      const changed = await file.change(name, {
        payload: await codec.encode(value),
        updatedAt: clock().toISOString(),
      });
      return changed.ok ? changed : refusal(changed.error);
    },
    async delete(name) {
      const nameProblem = secretNameProblem(name);
      if (nameProblem) return refusal(nameProblem);
      const changed = await file.change(name, null);
      return changed.ok ? changed : refusal(changed.error);
    },
    async reveal(name) {
      const stored = (await secrets()).get(name);
      return stored === undefined ? undefined : codec.decode(stored.payload);
    },
  };
}
