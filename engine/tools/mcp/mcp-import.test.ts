import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { importSourceFile } from './mcp-import';
import { referenceServers } from './test-support/reference-servers';
import { lemming } from './test-support/mcp-cli';

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
});
