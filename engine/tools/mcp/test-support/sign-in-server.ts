import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface SignInServerOptions {
  /** What its protected-resource metadata names as the authorization server (default: itself). */
  authorizationServers?: (origin: string) => string[];
  /** Its authorization server's sign-in page (default: its own /authorize). */
  authorizationEndpoint?: (origin: string) => string;
}

/**
 * A real OAuth 2.1 authorization server and MCP server in one, on 127.0.0.1: protected-resource and
 * authorization-server metadata, dynamic registration, an authorize page that signs the person in at
 * once (redirecting back with a code and the state), a token endpoint (PKCE checked, refresh tokens,
 * an id_token naming ada@example.com), and an MCP endpoint with one tool, `whoami`, behind bearer tokens.
 */
export async function startSignInServer(options: SignInServerOptions = {}) {
  const requests: string[] = [];
  const valid = new Set<string>();
  const refreshTokens = new Set<string>();
  const challenges = new Map<string, string>();
  let issued = 0;
  let origin = '';

  const json = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  const bodyOf = async (request: IncomingMessage) => {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    return text;
  };
  const tokens = () => {
    issued += 1;
    const access = `access-${issued}`;
    const refresh = `refresh-${issued}`;
    valid.add(access);
    refreshTokens.add(refresh);
    const claims = Buffer.from(JSON.stringify({ sub: 'u1', email: 'ada@example.com' })).toString('base64url');
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: 3600,
      id_token: `e30.${claims}.`,
    };
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', origin);
      const body = request.method === 'POST' ? await bodyOf(request) : '';
      const form = new URLSearchParams(body);
      requests.push(
        `${request.method} ${url.pathname}${form.get('grant_type') ? ` ${form.get('grant_type')}` : ''}`,
      );
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
        return json(response, 200, {
          resource: `${origin}/mcp`,
          authorization_servers: options.authorizationServers?.(origin) ?? [origin],
        });
      if (url.pathname === '/.well-known/oauth-authorization-server')
        return json(response, 200, {
          issuer: origin,
          authorization_endpoint: options.authorizationEndpoint?.(origin) ?? `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      if (url.pathname === '/register') {
        const asked = JSON.parse(body) as Record<string, unknown>;
        return json(response, 201, { ...asked, client_id: `client-${requests.length}` });
      }
      if (url.pathname === '/authorize') {
        const code = `code-${requests.length}`;
        challenges.set(code, url.searchParams.get('code_challenge') ?? '');
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        response.writeHead(302, { location: back.href });
        return response.end();
      }
      if (url.pathname === '/token') {
        if (form.get('grant_type') === 'refresh_token') {
          if (!refreshTokens.delete(form.get('refresh_token') ?? ''))
            return json(response, 400, { error: 'invalid_grant' });
          return json(response, 200, tokens());
        }
        const { createHash } = await import('node:crypto');
        const verifier = form.get('code_verifier') ?? '';
        if (
          challenges.get(form.get('code') ?? '') !== createHash('sha256').update(verifier).digest('base64url')
        )
          return json(response, 400, {
            error: 'invalid_grant',
            error_description: 'PKCE verifier does not match',
          });
        return json(response, 200, tokens());
      }
      if (url.pathname === '/mcp') {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
        if (!bearer || !valid.has(bearer))
          return json(
            response,
            401,
            { error: 'invalid_token' },
            {
              'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="files:read"`,
            },
          );
        const mcp = new SdkMcpServer({ name: 'sign-in-server', version: '1.0.0' });
        mcp.registerTool(
          'whoami',
          { description: 'Says who is signed in (with the token it was given)' },
          () => ({
            content: [{ type: 'text', text: `signed in with ${bearer}` }],
          }),
        );
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        await mcp.connect(transport);
        await transport.handleRequest(request, response, body ? JSON.parse(body) : undefined);
        return;
      }
      json(response, 404, { error: 'not_found' });
    })().catch((error: unknown) => json(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    port,
    url: `${origin}/mcp`,
    requests,
    /** Every access token given so far stops working (they expired); refresh tokens still do. */
    expireAccessTokens: () => valid.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
