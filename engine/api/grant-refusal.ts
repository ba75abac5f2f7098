/** What an org may be granted by name: a stored secret, or an environment variable of this computer. */
export type GrantKind = 'secret' | 'environment';

/**
 * A secret or variable an org names that the person has not granted it (docs/ARCHITECTURE.md,
 * “Secrets”): nothing is read for it and nothing is sent, and the person is told how to grant it.
 */
export interface NotGranted {
  kind: GrantKind;
  name: string;
  /** “this org may not use the secret X”. */
  reason: string;
  /** Where to grant it, in the app and from the command line. */
  fix: string;
  /** The same for a person who never saw a config file. */
  plain: { reason: string; fix: string };
}

/**
 * Whether a secret or variable the org names is refused to it, so a caller can tell "not granted" from
 * "not set": a secret is refused when it is set but not granted (one not set at all is simply not
 * set); a variable is refused whenever it is not granted (whether it is set is not even looked at).
 * Lookups give no value for what is refused.
 */
export type GrantRefusal = (kind: GrantKind, name: string) => NotGranted | null;

/** For callers whose values are all the person's own choice for this call (a key typed in a form). */
export const refusesNothing: GrantRefusal = () => null;

/** One sentence: “this org may not use the secret X; grant it in Settings → Secrets (…)”. */
export const describeNotGranted = (refused: Pick<NotGranted, 'reason' | 'fix'>): string => `${refused.reason}; ${refused.fix}`;

/** Several refusals as one: each reason, each distinct fix (a readiness, a card's error). */
export function allNotGranted(refused: readonly NotGranted[]): Omit<NotGranted, 'kind' | 'name'> {
  const distinct = (texts: string[]) => [...new Set(texts)].join('; ');
  return {
    reason: distinct(refused.map((one) => one.reason)),
    fix: distinct(refused.map((one) => one.fix)),
    plain: {
      reason: distinct(refused.map((one) => one.plain.reason)),
      fix: distinct(refused.map((one) => one.plain.fix)),
    },
  };
}
