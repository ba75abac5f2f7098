import { z } from 'zod';
import type { Result } from '../api/result';
import { SecretName } from '../api/secret-name';

/** Where a secret comes from: the CLI's secrets file, an environment variable, or the app's encrypted store. */
export const SecretSource = z.enum(['file', 'environment', 'safe_storage']);
export type SecretSource = z.infer<typeof SecretSource>;

/** What may be known about a secret without its value: it never carries the value, nor its length. */
export const SecretInfo = z.object({
  name: SecretName,
  /** ISO time of the last change; null when the source does not record it (environment variables). */
  updatedAt: z.string().nullable(),
  source: SecretSource,
});
export type SecretInfo = z.infer<typeof SecretInfo>;

/** Whether a store can take new values here, and when not, why and what to do about it. */
export const StoreAvailability = z.discriminatedUnion('canStore', [
  z.object({ canStore: z.literal(true) }),
  z.object({ canStore: z.literal(false), reason: z.string(), fix: z.string() }),
]);
export type StoreAvailability = z.infer<typeof StoreAvailability>;

/** Why a change was refused, and what to do about it when there is something. */
export interface SecretRefusal {
  reason: string;
  fix?: string;
}

/** The outcome of a change: refusals (bad name, read-only store, no safe encryption) are values, not throws. */
export type SecretChange = Result<{ existed: boolean }, SecretRefusal>;

/**
 * Named secrets (API keys, tokens) kept outside the org folder (docs/ARCHITECTURE.md, “Secrets”). Everything except
 * `reveal` is safe to offer to the renderer and the CLI: listing gives names and dates, never values.
 */
export interface SecretStore {
  /** Where the secrets live, for messages: "the secrets file /home/me/.lemming-secrets.json". */
  readonly location: string;
  availability(): Promise<StoreAvailability>;
  list(): Promise<SecretInfo[]>;
  has(name: string): Promise<boolean>;
  set(name: string, value: string): Promise<SecretChange>;
  delete(name: string): Promise<SecretChange>;
  /**
   * The value, for the engine's own use (filling `${secrets.KEY}` in an http_request, feeding the
   * redactor). Never exposed across IPC, never printed, never written to the timeline.
   */
  reveal(name: string): Promise<string | undefined>;
}

/** A presence check built from the listing, so readiness can be judged without reading any value. */
export async function secretPresence(store: SecretStore): Promise<(name: string) => boolean> {
  const names = new Set((await store.list()).map((info) => info.name));
  return (name) => names.has(name);
}

/** Every secret with its value, for the engine's redactor; engine use only, like `reveal`. */
export async function revealAll(store: SecretStore): Promise<{ name: string; value: string }[]> {
  const revealed = await Promise.all(
    (await store.list()).map(async ({ name }) => ({ name, value: await store.reveal(name) })),
  );
  return revealed.filter((secret): secret is { name: string; value: string } => secret.value !== undefined);
}
