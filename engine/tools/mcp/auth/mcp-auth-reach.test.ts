import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileSecretStore } from '../../../secrets/file-secret-store';
import type { HostLookup } from '../../../net/host-lookup';
import { McpHttpServer } from '../mcp-config';
import { McpServer } from '../mcp-server';
import { startSignInServer, type SignInServerOptions } from '../test-support/sign-in-server';
import { signInStoreIn } from './mcp-sign-in-store';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** Names an attacker's metadata might use, as a DNS that answers with the places they lead to. */
const HOSTILE_DNS: Record<string, string> = {
  'metadata.attacker.test': '169.254.169.254',
  'intranet.attacker.test': '10.0.0.5',
};

/**
 * One HTTP server as the engine holds it, with a DNS of our own: every name it is asked for is noted,
 * and none resolves to anything but the addresses above (nothing leaves this computer).
 */
async function serverAt(options: SignInServerOptions) {
  const remote = await startSignInServer(options);
  closing.push(remote.close);
  const folder = mkdtempSync(join(tmpdir(), 'lemming-auth-reach-'));
  closing.push(async () => rmSync(folder, { recursive: true, force: true }));
  const opened = await openFileSecretStore(join(folder, 'secrets.json'));
  if (!opened.ok) throw new Error(opened.error);
  const asked: string[] = [];
  const lookup: HostLookup = async (hostname) => {
    asked.push(hostname);
    const address = HOSTILE_DNS[hostname];
    if (!address) throw Object.assign(new Error(`${hostname} is not known here`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
  const server = new McpServer('remote', McpHttpServer.parse({ url: remote.url }), {
    orgPath: folder,
    secret: () => undefined,
    refusal: () => null,
    redact: (text) => text,
    privateHosts: ['127.0.0.1'],
    lookup,
    signInStore: signInStoreIn(opened.value.store, folder),
  });
  closing.push(() => server.stop());
  return { server, remote, asked };
}

describe('what an MCP server names in its sign-in metadata is reached only through the SSRF checks', () => {
  it.each([
    ['a cloud metadata address', 'http://metadata.attacker.test/', /169\.254\.169\.254/],
    ['a private network address by name', 'http://intranet.attacker.test/', /10\.0\.0\.5/],
    ['a private network address', 'http://10.0.0.5/', /10\.0\.0\.5/],
    ['a file', 'file:///etc/passwd', /Invalid URL/],
  ])('an authorization server at %s is refused', async (_what, authorizationServer, why) => {
    const { server, remote, asked } = await serverAt({ authorizationServers: () => [authorizationServer] });
    await server.start();
    expect(server.status).toBe('failed');
    expect(server.error).toMatch(why);
    // Its metadata was read, and nothing was asked of the place it named but, for a name, the DNS.
    expect(remote.requests).toContain('GET /.well-known/oauth-protected-resource/mcp');
    const host = URL.canParse(authorizationServer) ? new URL(authorizationServer).hostname : '';
    expect(asked.filter((name) => name !== host)).toEqual([]);
  });

  it('a sign-in page that is not a web page is never opened', async () => {
    const { server } = await serverAt({ authorizationEndpoint: () => 'javascript:alert(1)' });
    await server.start();
    expect(server.status).toBe('failed');
    const opened: URL[] = [];
    await expect(server.signInAndStart(async (url) => void opened.push(url))).rejects.toThrow();
    expect(opened).toEqual([]);
  });
});
