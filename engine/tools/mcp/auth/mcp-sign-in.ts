import {
  auth,
  extractWWWAuthenticateParams,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { fillSecrets, type McpHttpServer } from '../mcp-config';
import { listenForRedirect } from './loopback-redirect';
import {
  McpOAuthProvider,
  SignInNeededError,
  type McpOAuthSettings,
  type SignInMode,
} from './mcp-oauth-provider';
import type { McpSignInStore } from './mcp-sign-in-store';

/** Whether someone is signed in to a server, for its card: "Signed in as …" or "Sign in to …". */
export interface SignInView {
  signedIn: boolean;
  /** Who, when the token said (an email, a user name); null when it did not. */
  subject: string | null;
  /** Whether a person signs in (a browser page) or the app does by itself (client credentials). */
  byPerson: boolean;
}

/** How long a sign-in page may stay open before the sign-in is given up. */
const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/**
 * The authorization (OAuth 2.1, as the MCP specification says) of one HTTP server of one org, on the
 * SDK's `auth`: what its challenges asked for, the sign-in a person starts, and the provider the
 * transport uses (which never opens a browser by itself).
 */
export class McpSignIn {
  view: SignInView | null = null;

  constructor(
    private readonly config: McpHttpServer,
    private readonly store: McpSignInStore,
    private readonly secret: (name: string) => string | undefined,
  ) {}

  private get settings(): McpOAuthSettings {
    const entry = this.config.oauth;
    const filled = (value: string | undefined) =>
      value === undefined ? undefined : fillSecrets(value, this.secret).text;
    const settings: McpOAuthSettings = { grant: entry?.grant ?? 'authorization_code' };
    const values = {
      clientId: entry?.client_id,
      clientSecret: filled(entry?.client_secret),
      privateKey: filled(entry?.private_key),
      signingAlgorithm: entry?.signing_algorithm,
      clientMetadataUrl: entry?.client_metadata_url,
      scope: entry?.scope,
      issuer: entry?.issuer,
      idpTokenEndpoint: entry?.idp_token_endpoint,
      idpClientId: entry?.idp_client_id,
      idpIdToken: filled(entry?.idp_id_token),
    };
    for (const [key, value] of Object.entries(values))
      if (value !== undefined && value !== '') Object.assign(settings, { [key]: value });
    return settings;
  }

  provider(mode: SignInMode, fetchFn: FetchLike): McpOAuthProvider {
    return new McpOAuthProvider(this.store, this.settings, mode, fetchFn, this.config.url);
  }

  /**
   * Keeps what the server asked for when it refused a request (401, or 403 insufficient_scope): the
   * scope and where its metadata is, so the person's sign-in asks for exactly that.
   */
  async heard(response: Response): Promise<void> {
    if (response.status !== 401 && response.status !== 403) return;
    const { scope, resourceMetadataUrl, error } = extractWWWAuthenticateParams(response);
    if (response.status === 403 && error !== 'insufficient_scope') return;
    await this.store.update((record) => ({
      ...record,
      challenge: {
        ...(scope ? { scope } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
      },
    }));
  }

  async refreshView(): Promise<void> {
    const record = await this.store.load();
    const byPerson = this.settings.grant === 'authorization_code';
    this.view =
      record.tokens || record.challenge
        ? { signedIn: record.tokens !== undefined, subject: record.subject ?? null, byPerson }
        : null;
  }

  /**
   * The person signs in: a new authorization (the tokens held stay until new ones come, the client
   * registration is kept) for what the server last asked, its page opened with `open`, its answer taken at a
   * loopback redirect; then the tokens are kept. Every request goes through `fetchFn`.
   */
  async signIn(open: (url: URL) => Promise<void>, fetchFn: FetchLike): Promise<void> {
    const redirect = await listenForRedirect(SIGN_IN_TIMEOUT_MS);
    try {
      const provider = this.provider(
        { kind: 'person', redirectUrl: redirect.url, state: redirect.state, open },
        fetchFn,
      );
      const record = await this.store.load();
      const options = {
        serverUrl: this.config.url,
        ...(record.challenge?.scope ? { scope: record.challenge.scope } : {}),
        ...(record.challenge?.resourceMetadataUrl
          ? { resourceMetadataUrl: new URL(record.challenge.resourceMetadataUrl) }
          : {}),
        fetchFn,
      };
      let result = await auth(provider, options);
      if (result === 'REDIRECT')
        result = await auth(provider, { ...options, authorizationCode: await redirect.code });
      if (result !== 'AUTHORIZED') throw new Error('the sign-in did not finish');
    } finally {
      await redirect.close();
      await this.refreshView();
    }
  }

  /** Why an error means the server waits for a person to sign in; null when it means something else. */
  static neededBy(error: unknown): string | null {
    for (let cause = error; cause instanceof Error; cause = cause.cause) {
      if (cause instanceof SignInNeededError) return cause.message;
      if (cause instanceof UnauthorizedError) return 'it asks you to sign in';
      if (cause instanceof StreamableHTTPError && cause.code === 401)
        return 'it did not accept the sign-in it has; sign in again';
    }
    return null;
  }
}
