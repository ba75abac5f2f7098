import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { importSourceFile } from './mcp-import';
import { referenceServers } from './test-support/reference-servers';
import { lemming, trustOrg } from './test-support/mcp-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

describe('importing MCP servers from Claude Desktop and Cursor', () => {
  it('knows where each app keeps them on each OS', () => {
    expect(importSourceFile('claude', { platform: 'darwin', home: '/Users/ada' })).toBe(
      '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(importSourceFile('claude', { platform: 'linux', home: '/home/ada' })).toBe(
      '/home/ada/.config/Claude/claude_desktop_config.json',
    );
    expect(
      importSourceFile('claude', {
        platform: 'win32',
        home: 'C:\\Users\\ada',
        appData: 'C:\\Users\\ada\\AppData\\Roaming',
      }),
    ).toMatch(/Roaming.Claude.claude_desktop_config\.json$/);
    expect(importSourceFile('cursor', { platform: 'linux', home: '/home/ada' })).toBe(
      '/home/ada/.cursor/mcp.json',
    );
  });

  it(
    'imports their servers with every env and header value moved to the secret store, and the servers run',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/mcp.json': { mcpServers: { memory: referenceServers.memory('memory.jsonl') } },
        'agents/ada/resume.json': resume('ada', { permissions: { read_outboxes: [], tools: ['group:mcp'] } }),
      });
      const elsewhere = join(org, '..', 'claude');
      mkdirSync(elsewhere);
      const claudeConfig = join(elsewhere, 'claude_desktop_config.json');
      writeFileSync(
        claudeConfig,
        JSON.stringify({
          mcpServers: {
            everything: { ...referenceServers.everything(), env: { API_KEY: 'sk-imported-4f1c2b9a' } },
            memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
            // Turned off, as Claude Desktop writes it: imported turned off, so nothing reaches for it here.
            remote: {
              disabled: true,
              url: 'https://mcp.example.com/mcp',
              headers: { Authorization: 'Bearer imported-token-77ab' },
            },
            'bad.name': { command: 'x' },
          },
        }),
      );
      const secretsFile = join(elsewhere, 'secrets.json');
      // The org is trusted before the import; the servers the person imports keep it trusted.
      expect((await lemming(['trust', org, '--yes'])).code).toBe(0);
      const imported = await lemming(['connectors', org, '--import', claudeConfig], {
        LEMMING_SECRETS_FILE: secretsFile,
      });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('Imported from');
      expect(imported.stdout).toContain('everything, remote');
      expect(imported.stdout).toContain('MCP_EVERYTHING_API_KEY, MCP_REMOTE_AUTHORIZATION');
      expect(imported.stdout).toContain('skipped memory: the org already has a server with that name');
      expect(imported.stdout).toMatch(/skipped bad\.name: its name cannot name tools/);

      const written = readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8');
      expect(written).not.toContain('sk-imported-4f1c2b9a');
      expect(written).not.toContain('imported-token-77ab');
      expect(JSON.parse(written).mcpServers.everything.env).toEqual({
        API_KEY: '${secrets.MCP_EVERYTHING_API_KEY}',
      });

      const call = await lemming(['call', org, 'ada', 'mcp__everything__echo', '{"message": "imported"}'], {
        LEMMING_SECRETS_FILE: secretsFile,
      });
      expect(call.stdout).toContain('Echo: imported');
    },
  );

  /** A Claude Desktop file elsewhere than the org, with these servers. */
  function claudeFile(org: string, mcpServers: Record<string, unknown>): string {
    const elsewhere = join(org, '..', 'claude');
    mkdirSync(elsewhere, { recursive: true });
    const file = join(elsewhere, 'claude_desktop_config.json');
    writeFileSync(file, JSON.stringify({ mcpServers }));
    return file;
  }
  const storedValue = (secretsFile: string, name: string): unknown =>
    (JSON.parse(readFileSync(secretsFile, 'utf8')) as { secrets: Record<string, { value: string }> }).secrets[
      name
    ]?.value;

  it("gives values whose names would be spelled alike distinct secrets, so no server gets another one's", async () => {
    const org = orgs.build({ 'agents/ada/resume.json': resume('ada') });
    const secretsFile = join(org, '..', 'secrets.json');
    const from = claudeFile(org, {
      gh: { command: 'gh-mcp', env: { X_TOKEN: 'token-of-gh-3b1f9a' } },
      gh_x: { command: 'gh-x-mcp', env: { TOKEN: 'token-of-gh-x-8c2e4d' } },
    });
    const imported = await lemming(['connectors', org, '--import', from, '--json'], {
      LEMMING_SECRETS_FILE: secretsFile,
    });
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout).secrets).toEqual(['MCP_GH_X_TOKEN', 'MCP_GH_X_TOKEN_2']);
    const servers = JSON.parse(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8')).mcpServers;
    expect(servers.gh.env).toEqual({ X_TOKEN: '${secrets.MCP_GH_X_TOKEN}' });
    expect(servers.gh_x.env).toEqual({ TOKEN: '${secrets.MCP_GH_X_TOKEN_2}' });
    expect(storedValue(secretsFile, 'MCP_GH_X_TOKEN')).toBe('token-of-gh-3b1f9a');
    expect(storedValue(secretsFile, 'MCP_GH_X_TOKEN_2')).toBe('token-of-gh-x-8c2e4d');

    // A later import never takes a name the org's servers already use.
    const later = claudeFile(org, { 'gh-x': { command: 'other', env: { TOKEN: 'token-of-other-55aa' } } });
    const again = await lemming(['connectors', org, '--import', later, '--json'], {
      LEMMING_SECRETS_FILE: secretsFile,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).secrets).toEqual(['MCP_GH_X_TOKEN_3']);
    expect(storedValue(secretsFile, 'MCP_GH_X_TOKEN')).toBe('token-of-gh-3b1f9a');
  });

  it("never replaces a stored secret without the person's yes: it stops and says which, and imports when they agree", async () => {
    const org = orgs.build({ 'agents/ada/resume.json': resume('ada') });
    const secretsFile = join(org, '..', 'secrets.json');
    const set = await lemming(
      ['secret', 'set', 'MCP_SEARCH_API_KEY', '--value', 'the-persons-own-key-71d0'],
      {
        LEMMING_SECRETS_FILE: secretsFile,
      },
    );
    expect(set.code, set.stderr).toBe(0);
    const from = claudeFile(org, {
      search: { command: 'search-mcp', env: { API_KEY: 'imported-key-0be3' } },
    });

    const refused = await lemming(['connectors', org, '--import', from], {
      LEMMING_SECRETS_FILE: secretsFile,
    });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Nothing was imported: the secret store already has MCP_SEARCH_API_KEY/);
    expect(refused.stderr).toContain('--replace-secrets MCP_SEARCH_API_KEY');
    expect(storedValue(secretsFile, 'MCP_SEARCH_API_KEY')).toBe('the-persons-own-key-71d0');
    expect(existsSync(join(org, 'lemming/config/mcp.json'))).toBe(false);

    const agreed = await lemming(
      ['connectors', org, '--import', from, '--replace-secrets', 'MCP_SEARCH_API_KEY'],
      { LEMMING_SECRETS_FILE: secretsFile },
    );
    expect(agreed.code, agreed.stderr).toBe(0);
    expect(storedValue(secretsFile, 'MCP_SEARCH_API_KEY')).toBe('imported-key-0be3');
  });

  it(
    "imports VS Code's file into an org that uses VS Code's spelling: its ${input:…} is a secret the person is told to set, and then the server runs",
    { timeout: 60_000 },
    async () => {
      const org = orgs.build({
        'lemming/config/mcp.json': { servers: { memory: referenceServers.memory('memory.jsonl') } },
        'agents/ada/resume.json': resume('ada', { permissions: { read_outboxes: [], tools: ['group:mcp'] } }),
      });
      await trustOrg(org);
      const secretsFile = join(org, '..', 'secrets.json');
      const vscode = join(org, '..', 'vscode-mcp.json');
      writeFileSync(
        vscode,
        JSON.stringify({
          inputs: [
            { type: 'promptString', id: 'api-key', description: 'Everything API key', password: true },
          ],
          servers: {
            everything: {
              type: 'stdio',
              ...referenceServers.everything(),
              env: { API_KEY: '${input:api-key}' },
            },
          },
        }),
      );
      const imported = await lemming(['connectors', org, '--import', vscode], {
        LEMMING_SECRETS_FILE: secretsFile,
      });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain(
        'everything needs the secret MCP_EVERYTHING_API_KEY (Everything API key), which VS Code asks for as it starts the server: set it with lemming secret set MCP_EVERYTHING_API_KEY',
      );
      const written = JSON.parse(readFileSync(join(org, 'lemming/config/mcp.json'), 'utf8'));
      expect(written.mcpServers).toBeUndefined();
      expect(written.servers.everything.env).toEqual({ API_KEY: '${secrets.MCP_EVERYTHING_API_KEY}' });

      const waiting = await lemming(['connectors', org], { LEMMING_SECRETS_FILE: secretsFile });
      expect(waiting.stdout).toContain('it needs the secret MCP_EVERYTHING_API_KEY, which is not set');
      const set = await lemming(
        ['secret', 'set', 'MCP_EVERYTHING_API_KEY', '--value', 'k-given-by-the-person'],
        {
          LEMMING_SECRETS_FILE: secretsFile,
        },
      );
      expect(set.code, set.stderr).toBe(0);
      await trustOrg(org, ['MCP_EVERYTHING_API_KEY']);
      const call = await lemming(
        ['call', org, 'ada', 'mcp__everything__echo', '{"message": "from VS Code"}'],
        {
          LEMMING_SECRETS_FILE: secretsFile,
        },
      );
      expect(call.stdout).toContain('Echo: from VS Code');
    },
  );

  it('reports two server tools whose names agents would see alike, with both names, and offers neither', async () => {
    const wrote = join(orgs.build({}), 'wrote.txt');
    const org = orgs.build({
      'lemming/config/mcp.json': {
        mcpServers: {
          look: {
            command: process.execPath,
            args: [join(import.meta.dirname, 'test-support', 'lookalike-server.mjs')],
            env: { LOOKALIKE_FILE: wrote },
          },
        },
      },
      'agents/ada/resume.json': resume('ada', {
        permissions: { read_outboxes: [], tools: ['group:mcp:look', 'mcp__look__file_read'] },
      }),
    });
    await trustOrg(org);
    const listed = await lemming(['connectors', org]);
    expect(listed.stdout).toContain(
      'problem: two of its tools, “file.read” and “file_read”, have the same name for agents (mcp__look__file_read), so neither is offered',
    );
    expect(listed.stdout).toContain('tool mcp__look__list');
    const call = await lemming(['call', org, 'ada', 'mcp__look__file_read', '{}']);
    expect(JSON.parse(call.stdout)).toMatchObject({
      success: false,
      error: expect.stringMatching(/“file\.read” and “file_read”/),
    });
    expect(existsSync(wrote)).toBe(false);
  });
});
