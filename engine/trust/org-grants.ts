import type { OrgGrants } from '../api/trust-schemas';
import type { GrantKind, GrantRefusal, NotGranted } from '../api/grant-refusal';
import { orgKeyOf } from './org-trust';
import { commandLineOf } from './org-reach';
import type { TrustStore } from './trust-store';

/** Reads environment variables by name, only those asked for; a variable that is not set is left out. */
export type VariableSource = (names: readonly string[]) => Promise<Record<string, string>>;

/** A VariableSource over an environment this process holds (the CLI's own, a test's). */
export function variablesIn(env: Readonly<Record<string, string | undefined>>): VariableSource {
  return async (names) => pickVariables(env, names);
}

/** The variables of `env` among `names`, each only if it is set. */
export function pickVariables(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = Object.hasOwn(env, name) ? env[name] : undefined;
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** What to tell the person about a secret or variable the org at `orgPath` names but was not granted. */
export function notGranted(kind: GrantKind, name: string, orgPath: string): NotGranted {
  const org = commandLineOf([orgPath]);
  return kind === 'secret'
    ? {
        kind,
        name,
        reason: `this org may not use the secret ${name}; grant it in Settings → Secrets`,
        command: `lemming secret grant ${name} --org ${org}`,
        plain: {
          reason: `this org is not allowed to use the key ${name}`,
          fix: 'allow it for this org in Settings → Secrets',
        },
      }
    : {
        kind,
        name,
        reason: `this org may not read the environment variable ${name}; allow it on the org's trust screen`,
        command: `lemming trust ${org} --yes --env ${name}`,
        plain: {
          reason: `this org is not allowed to read ${name} from this computer`,
          fix: 'allow it on the org’s trust screen',
        },
      };
}

/**
 * The stored secrets and environment variables one org may use, as the person granted them when this
 * was read (docs/ARCHITECTURE.md, “Secrets”): a value not granted is never given out, whichever store
 * holds it, and `refusal` says so rather than calling it "not set".
 */
export class GrantedValues {
  private readonly granted: { secrets: ReadonlySet<string>; environment: ReadonlySet<string> };
  /** The granted environment variables that are set, by name. */
  readonly variables: Readonly<Record<string, string>>;

  constructor(
    private readonly orgPath: string,
    grants: OrgGrants,
    private readonly secrets: ReadonlyMap<string, string>,
    variables: Readonly<Record<string, string | undefined>>,
  ) {
    this.granted = { secrets: new Set(grants.secrets), environment: new Set(grants.environment) };
    this.variables = Object.freeze(pickVariables(variables, grants.environment));
  }

  /** Nothing granted, nothing stored: an engine before its first reading. */
  static none(orgPath: string): GrantedValues {
    return new GrantedValues(orgPath, { secrets: [], environment: [] }, new Map(), {});
  }

  /** A secret's value when it is set and granted to the org. */
  readonly secret = (name: string): string | undefined =>
    this.granted.secrets.has(name) ? this.secrets.get(name) : undefined;

  readonly refusal: GrantRefusal = (kind, name) => {
    if (kind === 'secret')
      return this.secrets.has(name) && !this.granted.secrets.has(name)
        ? notGranted(kind, name, this.orgPath)
        : null;
    return this.granted.environment.has(name) ? null : notGranted(kind, name, this.orgPath);
  };
}

/**
 * Reads the org's grants from the person's record and the granted variables from `variables` (only
 * those are asked for), with `secrets` the values of every stored secret.
 */
export async function readGrantedValues(
  orgPath: string,
  trust: TrustStore,
  secrets: ReadonlyMap<string, string>,
  variables: VariableSource,
): Promise<GrantedValues> {
  const { grants } = trust.record(orgKeyOf(orgPath));
  const values = grants.environment.length > 0 ? await variables(grants.environment) : {};
  return new GrantedValues(orgPath, grants, secrets, values);
}
