import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpSignInStore, SignInRecord } from './mcp-sign-in-store';

/** How the server's entry in mcp.json says to authorize, its `${secrets.NAME}` values filled in. */
export interface McpOAuthSettings {
  /**
   * `authorization_code`: a person signs in in their browser; `client_credentials`: the app signs in by
   * itself; `identity_assertion`: the organization's identity provider vouches (SEP-990: its ID token is
   * exchanged there for an identity assertion grant, which the authorization server takes).
   */
  grant: 'authorization_code' | 'client_credentials' | 'identity_assertion';
  /** A client registered beforehand with the authorization server (no dynamic registration then). */
  clientId?: string;
  clientSecret?: string;
  /** For client credentials signed with a key (private_key_jwt) instead of a secret. */
  privateKey?: string;
  signingAlgorithm?: string;
  /** An https URL serving this client's metadata document, used as its client ID where the server accepts one. */
  clientMetadataUrl?: string;
  /** The scope to ask for when neither the server's challenge nor its metadata names one. */
  scope?: string;
  /** The authorization server a pre-registered client belongs to: its credentials are sent nowhere else. */
  issuer?: string;
  idpTokenEndpoint?: string;
  idpClientId?: string;
  idpIdToken?: string;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The server needs a person to sign in (no sign-in yet, it expired, or it asks for more), and none is here. */
export class SignInNeededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInNeededError';
  }
}

/** Signing in again would not help: the server refuses a scope the person already granted. */
export class SignInWillNotHelpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInWillNotHelpError';
  }
}

/**
 * Who may answer a sign-in now. `unattended` (a tick, a call, a card refresh): stored tokens are used
 * and refreshed, and a sign-in that needs the person stops with SignInNeededError, never opening a
 * browser. `person`: the person asked to sign in; the page opens with `open`, and the answer comes
 * back to `redirectUrl` carrying `state`.
 */
export type SignInMode =
  | { kind: 'unattended' }
  | { kind: 'person'; redirectUrl: string; state: string; open: (url: URL) => Promise<void> };

/** Never registered or visited: a client that signs in unattended only ever refreshes. */
const UNATTENDED_REDIRECT = 'http://127.0.0.1/callback';

const scopesOf = (scope: string | undefined) => new Set((scope ?? '').split(' ').filter(Boolean));

/**
 * The SDK's `OAuthClientProvider` for one server of one org: what it keeps goes to the secret store
 * (`McpSignInStore`), what it may do depends on who is there (`SignInMode`).
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private verifier: string | null = null;
  readonly addClientAuthentication?: OAuthClientProvider['addClientAuthentication'];

  constructor(
    private readonly store: McpSignInStore,
    private readonly settings: McpOAuthSettings,
    private readonly mode: SignInMode,
    /** How the identity provider is reached (the same checked fetch as every other request). */
    private readonly fetchFn: FetchLike,
    private readonly serverUrl: string,
  ) {
    if (settings.grant === 'client_credentials' && settings.privateKey && settings.clientId)
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: settings.clientId,
        subject: settings.clientId,
        privateKey: settings.privateKey,
        alg: settings.signingAlgorithm ?? 'ES256',
      });
  }

  get redirectUrl(): string | undefined {
    if (this.settings.grant !== 'authorization_code') return undefined;
    return this.mode.kind === 'person' ? this.mode.redirectUrl : UNATTENDED_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'LeMMing Desktop',
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types:
        this.settings.grant === 'authorization_code'
          ? ['authorization_code', 'refresh_token']
          : [this.settings.grant === 'client_credentials' ? 'client_credentials' : JWT_BEARER],
      response_types: this.settings.grant === 'authorization_code' ? ['code'] : [],
      ...(this.settings.privateKey ? { token_endpoint_auth_method: 'private_key_jwt' } : {}),
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
  }

  state(): string {
    return this.mode.kind === 'person' ? this.mode.state : '';
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = (await this.store.load()).client;
    const { clientId, clientSecret, issuer } = this.settings;
    if (clientId) {
      // A pre-registered client: as stored once the SDK bound it to its authorization server, else as configured.
      if (stored?.client_id === clientId)
        return { ...stored, ...(clientSecret ? { client_secret: clientSecret } : {}) };
      return {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    if (this.mode.kind === 'unattended') {
      if (!stored) throw new SignInNeededError('it asks you to sign in');
      return stored;
    }
    // A registration made for another loopback port is registered again for this one.
    const registeredFor = (stored as { redirect_uris?: string[] } | undefined)?.redirect_uris;
    if (stored && registeredFor && registeredFor.length > 0 && !registeredFor.includes(this.mode.redirectUrl))
      return undefined;
    return stored;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.store.update((record) => ({ ...record, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // The person asked to sign in: a new authorization, not a refresh of what is held (which stays until then).
    if (this.mode.kind === 'person') return undefined;
    return (await this.store.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const subject = subjectOf(tokens);
    await this.store.update((record) => ({
      ...record,
      tokens,
      obtainedAt: new Date().toISOString(),
      ...(subject ? { subject } : {}),
    }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (authorizationUrl.protocol !== 'https:' && authorizationUrl.protocol !== 'http:')
      throw new Error(
        `its authorization server gave a sign-in page that is not a web address (${authorizationUrl.protocol}); it was not opened`,
      );
    const wanted = authorizationUrl.searchParams.get('scope') ?? undefined;
    if (this.mode.kind === 'unattended') {
      const record = await this.store.load();
      if (record.tokens) {
        const held = scopesOf(record.tokens.scope ?? record.requestedScope);
        const missing = [...scopesOf(wanted)].filter((scope) => !held.has(scope));
        if (missing.length === 0)
          throw new SignInWillNotHelpError(
            `it refuses the request although you signed in with the permission it asks for (${wanted ?? 'none named'}); signing in again would not change that`,
          );
        throw new SignInNeededError(`it asks you to sign in again to allow more (${missing.join(' ')})`);
      }
      throw new SignInNeededError('it asks you to sign in');
    }
    if (authorizationUrl.searchParams.get('state') !== this.mode.state)
      throw new Error('the sign-in request lost its state; it was not opened');
    await this.store.update((record) => ({ ...record, ...(wanted ? { requestedScope: wanted } : {}) }));
    await this.mode.open(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === null) throw new Error('no sign-in was started here');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.verifier = null;
      return;
    }
    await this.store.update((record): SignInRecord => {
      const next = { ...record };
      if (scope === 'all' || scope === 'tokens') delete next.tokens;
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'discovery') delete next.discovery;
      return next;
    });
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const asked = scope ?? this.settings.scope;
    const withScope = (params: Record<string, string>) =>
      new URLSearchParams({ ...params, ...(asked ? { scope: asked } : {}) });
    if (this.settings.grant === 'client_credentials') return withScope({ grant_type: 'client_credentials' });
    if (this.settings.grant === 'identity_assertion')
      return withScope({ grant_type: JWT_BEARER, assertion: await this.identityAssertion() });
    return undefined;
  }

  /**
   * SEP-990's first step: the organization's identity provider trades its ID token for an identity
   * assertion grant (ID-JAG) for this server's authorization server and resource (RFC 8693).
   */
  private async identityAssertion(): Promise<string> {
    const { idpTokenEndpoint, idpClientId, idpIdToken } = this.settings;
    if (!idpTokenEndpoint || !idpClientId || !idpIdToken)
      throw new Error("the entry's oauth needs idp_token_endpoint, idp_client_id and idp_id_token");
    const discovery = await this.discoveryState();
    const audience = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
    const resource = discovery?.resourceMetadata?.resource ?? this.serverUrl;
    if (!audience) throw new Error('its authorization server is not known yet');
    const answer = await this.fetchFn(idpTokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: TOKEN_EXCHANGE,
        requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        audience,
        resource,
        subject_token: idpIdToken,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        client_id: idpClientId,
      }).toString(),
    });
    const body = (await answer.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (!answer.ok || typeof body.access_token !== 'string')
      throw new Error(
        `your organization's sign-in service did not vouch for you (${answer.status}${typeof body.error === 'string' ? `: ${body.error}` : ''})`,
      );
    return body.access_token;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.store.update((record) => ({ ...record, discovery }));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.store.load()).discovery;
  }
}

/** Who signed in, when the token says: an OpenID id_token's (or a JWT access token's) email, name or subject. */
function subjectOf(tokens: OAuthTokens): string | undefined {
  for (const token of [tokens.id_token, tokens.access_token]) {
    const payload = token?.split('.')[1];
    if (!payload) continue;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      for (const claim of ['email', 'preferred_username', 'name', 'sub'])
        if (typeof claims[claim] === 'string' && claims[claim] !== '') return claims[claim];
    } catch {
      // Not a JWT: an opaque token says nothing about who signed in.
    }
  }
  return undefined;
}
