import { describe, expect, it } from 'vitest';
import { readMcpEntries, serverSecretNames } from './mcp-config';

/** The entry `remote` as mcp.json's reader takes it: its settings, or its problems. */
function remote(entry: Record<string, unknown>) {
  const [read] = readMcpEntries(
    { mcpServers: { remote: { url: 'https://mcp.example.test/mcp', ...entry } } },
    'lemming/config/mcp.json',
    null,
  );
  return read!;
}

function issues(entry: Record<string, unknown>) {
  const read = remote(entry);
  return read.valid ? [] : read.problems.map((problem) => `${problem.field}: ${problem.message}`);
}

describe("an HTTP server's oauth settings in mcp.json", () => {
  it('name their credentials as secrets: a literal client secret, key or ID token is a located problem', () => {
    expect(issues({ oauth: { client_id: 'app', client_secret: 'hunter2' } })).toEqual([
      expect.stringMatching(/^mcpServers\.remote\.oauth\.client_secret: client_secret holds a credential/),
    ]);
    expect(
      issues({ oauth: { grant: 'client_credentials', client_id: 'app', private_key: '-----BEGIN' } }),
    ).toEqual([
      expect.stringMatching(/^mcpServers\.remote\.oauth\.private_key: private_key holds a credential/),
    ]);
    expect(issues({ oauth: { client_id: 'app', client_secret: '${secrets.APP_SECRET}' } })).toEqual([]);
  });

  it('say what a grant is missing, and refuse what they do not know', () => {
    expect(issues({ oauth: { grant: 'client_credentials' } })).toEqual([
      'mcpServers.remote.oauth.client_id: client_credentials needs the client_id registered for this app',
    ]);
    expect(issues({ oauth: { grant: 'identity_assertion', client_id: 'app' } })).toEqual([
      'mcpServers.remote.oauth.idp_token_endpoint: identity_assertion needs idp_token_endpoint',
      'mcpServers.remote.oauth.idp_client_id: identity_assertion needs idp_client_id',
      'mcpServers.remote.oauth.idp_id_token: identity_assertion needs idp_id_token',
    ]);
    expect(issues({ oauth: { client_metadata_url: 'http://app.example.test/client.json' } })).toEqual([
      'mcpServers.remote.oauth.client_metadata_url: client_metadata_url must be an https URL',
    ]);
    expect(issues({ oauth: { grant: 'password' } })[0]).toMatch(
      /^mcpServers\.remote\.oauth\.grant: grant must be/,
    );
  });

  it("count the secrets they name among the server's secrets (so the card and trust show them)", () => {
    const read = remote({
      oauth: { grant: 'client_credentials', client_id: 'app', client_secret: '${secrets.APP_SECRET}' },
    });
    expect(read.valid && serverSecretNames(read.config)).toEqual(['APP_SECRET']);
  });
});
