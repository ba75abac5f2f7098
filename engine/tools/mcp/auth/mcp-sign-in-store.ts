import { createHash } from 'node:crypto';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { SecretStore } from '../../../secrets/secret-store';

/** What a server last asked for in its `WWW-Authenticate` answer (401, or 403 insufficient_scope). */
export interface SignInChallenge {
  scope?: string;
  resourceMetadataUrl?: string;
}

/**
 * Everything kept about one server's sign-in for one org. Tokens and client registrations are stored
 * as the SDK hands them over (with the authorization server they are bound to), never changed.
 */
export interface SignInRecord {
  tokens?: OAuthTokens & { issuer?: string };
  /** When the tokens were received (ISO time), so their expiry can be told. */
  obtainedAt?: string;
  client?: OAuthClientInformationMixed & { issuer?: string };
  discovery?: OAuthDiscoveryState;
  challenge?: SignInChallenge;
  /** The scope asked for at the last sign-in, for when the tokens do not say what they were granted. */
  requestedScope?: string;
  /** Who signed in, from the token when it says (an id_token's email, name or subject). */
  subject?: string;
}

/** The parts of a record that are credentials: each is its own secret, so the redactor knows each value. */
const CREDENTIALS = ['ACCESS', 'REFRESH', 'CLIENT_SECRET'] as const;
type Credential = (typeof CREDENTIALS)[number];

/**
 * One server's sign-in for one org, kept in the person's secret store (never in the org folder):
 * `MCP_SIGNIN_<SERVER>_<ORG>_STATE` holds the record without its credentials, and the access token,
 * refresh token and client secret are secrets of their own (`…_ACCESS`, `…_REFRESH`, `…_CLIENT_SECRET`),
 * so every one of them is redacted wherever it would appear. `<ORG>` is a short hash of the org's
 * place, so another org's server of the same name never shares a sign-in.
 */
export class McpSignInStore {
  private readonly prefix: string;

  constructor(
    private readonly store: SecretStore,
    orgKey: string,
    server: string,
    /** Told after new credentials were kept, so every redaction knows them before they can appear anywhere. */
    private readonly changed: () => Promise<void> = async () => undefined,
  ) {
    const org = createHash('sha256').update(orgKey).digest('hex').slice(0, 10).toUpperCase();
    this.prefix = `MCP_SIGNIN_${server.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_${org}`;
  }

  /** The names of the secrets this sign-in uses (listed in the secret store like any other). */
  secretNames(): string[] {
    return ['STATE', ...CREDENTIALS].map((part) => `${this.prefix}_${part}`);
  }

  async load(): Promise<SignInRecord> {
    const [state, access, refresh, clientSecret] = await Promise.all(
      ['STATE', ...CREDENTIALS].map((part) => this.store.reveal(`${this.prefix}_${part}`)),
    );
    const record = readRecord(state);
    if (record.tokens && access) record.tokens.access_token = access;
    else delete record.tokens;
    if (record.tokens && refresh) record.tokens.refresh_token = refresh;
    if (record.client && clientSecret) record.client.client_secret = clientSecret;
    return record;
  }

  /** Saves the record: the credentials apart, an empty part removed. A refusal of the store is thrown. */
  async save(record: SignInRecord): Promise<void> {
    const { access_token, refresh_token, ...tokens } = record.tokens ?? { access_token: '' };
    const { client_secret, ...client } = (record.client ?? {}) as { client_secret?: string };
    const state: SignInRecord = {
      ...record,
      ...(record.tokens ? { tokens: { ...tokens, access_token: '' } as OAuthTokens } : {}),
      ...(record.client ? { client: client as OAuthClientInformationMixed } : {}),
    };
    const values: Record<Credential | 'STATE', string | undefined> = {
      STATE: JSON.stringify(state),
      ACCESS: record.tokens ? access_token : undefined,
      REFRESH: record.tokens ? refresh_token : undefined,
      CLIENT_SECRET: client_secret,
    };
    for (const [part, value] of Object.entries(values)) {
      const name = `${this.prefix}_${part}`;
      if (!value && !(await this.store.has(name))) continue;
      const change = value ? await this.store.set(name, value) : await this.store.delete(name);
      if (!change.ok) throw new Error(`the sign-in could not be kept: ${change.error.reason}`);
    }
    await this.changed();
  }

  async update(change: (record: SignInRecord) => SignInRecord): Promise<SignInRecord> {
    const next = change(await this.load());
    await this.save(next);
    return next;
  }

  /** Forgets the sign-in entirely (its tokens, its client registration, what was discovered). */
  async clear(): Promise<void> {
    for (const name of this.secretNames()) if (await this.store.has(name)) await this.store.delete(name);
  }
}

/** A kept record; one that cannot be read is no sign-in (the person is asked to sign in again). */
function readRecord(state: string | undefined): SignInRecord {
  try {
    return state ? (JSON.parse(state) as SignInRecord) : {};
  } catch {
    return {};
  }
}

/** The sign-in store of each server of one org (by its key), in the person's secret store. */
export function signInStoreIn(
  store: SecretStore,
  orgKey: string,
  changed?: () => Promise<void>,
): (server: string) => McpSignInStore {
  return (server) => new McpSignInStore(store, orgKey, server, changed);
}
