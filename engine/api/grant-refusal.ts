/** What an org may be granted by name: a stored secret, or an environment variable of this computer. */
export type GrantKind = 'secret' | 'environment';

/**
 * A secret or variable an org names that the person has not granted it (docs/ARCHITECTURE.md,
 * “Secrets”): nothing is read for it and nothing is sent, and the person is told how to grant it.
 */
export interface NotGranted {
  kind: GrantKind;
  name: string;
  /** “this org may not use the secret X; grant it in Settings → Secrets”. */
  reason: string;
  /** The command that grants it: `lemming secret grant X --org /path/to/org`. */
  command: string;
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

/** Several refusals as one: each distinct reason, command and plain words. */
export function allNotGranted(refused: readonly NotGranted[]): Omit<NotGranted, 'kind' | 'name'> {
  const distinct = (texts: string[]) => [...new Set(texts)].join('; ');
  return {
    reason: distinct(refused.map((one) => one.reason)),
    command: distinct(refused.map((one) => one.command)),
    plain: {
      reason: distinct(refused.map((one) => one.plain.reason)),
      fix: distinct(refused.map((one) => one.plain.fix)),
    },
  };
}

/** One sentence: “this org may not use the secret X; grant it in Settings → Secrets (from the command line: …)”. */
export const describeNotGranted = (refused: Pick<NotGranted, 'reason' | 'command'>): string =>
  `${refused.reason} (from the command line: ${refused.command})`;

/** The policy resolver's readiness of a tool that names what the org was not granted. */
export function notGrantedReadiness(refused: Omit<NotGranted, 'kind' | 'name'>): {
  ready: false;
  reason: string;
  fix: string;
  plain: { reason: string; fix: string };
} {
  return { ready: false, reason: refused.reason, fix: `run ${refused.command}`, plain: refused.plain };
}
