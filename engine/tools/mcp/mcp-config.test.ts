import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refusesNothing } from '../../api/grant-refusal';
import { DEFAULT_ORG_POLICY } from '../../org/policy-file';
import { tempOrgs } from '../../run/test-support/temp-org';
import { McpHub } from './mcp-hub';
import {
  httpTransportOf,
  readMcpConfig,
  updateMcpConfig,
  type McpEntry,
  type McpHttpServer,
} from './mcp-config';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const FILE = 'lemming/config/mcp.json';

/** An org whose mcp.json is exactly `text`, read back. */
async function read(text: string) {
  const org = orgs.build({ [FILE]: text });
  const config = await readMcpConfig(org);
  if (!config.ok) throw new Error(`the file did not read: ${JSON.stringify(config.error)}`);
  return config.value;
}

const problemsOf = (entries: McpEntry[], name: string) =>
  entries.flatMap((entry) => (entry.name === name && !entry.valid ? entry.problems : []));

describe('mcp.json, one entry at a time', () => {
  it('a bad entry is a problem of that server only, located at its field and line; the others are read', async () => {
    const config = await read(
      [
        '{',
        '  "mcpServers": {',
        '    "files": { "command": "npx", "args": ["-y", "server-files"] },',
        '    "broken": { "command": 42 },',
        '    "web": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer abc" } },',
        '    "bad name!": { "command": "npx" }',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(Object.keys(config.servers)).toEqual(['files']);
    expect(problemsOf(config.entries, 'broken')).toEqual([
      {
        file: FILE,
        field: 'mcpServers.broken.command',
        message: 'command must be text',
        line: 4,
        column: 28,
      },
    ]);
    expect(problemsOf(config.entries, 'web')).toEqual([
      expect.objectContaining({
        field: 'mcpServers.web.headers.Authorization',
        message: expect.stringMatching(/^Authorization holds a credential/),
        line: 5,
      }),
    ]);
    expect(problemsOf(config.entries, 'bad name!')).toEqual([
      expect.objectContaining({
        field: 'mcpServers.bad name!',
        message: 'a server name may hold only letters, digits, - and single _',
        line: 6,
      }),
    ]);
  });

  it('keeps fields it does not know, in the file and on the entry', async () => {
    const org = orgs.build({
      [FILE]: { mcpServers: { files: { command: 'npx', autoApprove: ['read'], note: 'mine' } }, extra: 1 },
    });
    const config = await readMcpConfig(org);
    expect(config.ok && config.value.servers.files).toMatchObject({ autoApprove: ['read'], note: 'mine' });
    const updated = await updateMcpConfig(org, [
      { path: ['mcpServers', 'more'], value: { command: 'node' } },
    ]);
    expect(updated.ok).toBe(true);
    const written = JSON.parse(readFileSync(join(org, FILE), 'utf8'));
    expect(written).toMatchObject({
      extra: 1,
      mcpServers: { files: { autoApprove: ['read'], note: 'mine' } },
    });
  });

  it("an edit is refused when it leaves the server it writes invalid, not because of another entry's problem", async () => {
    const org = orgs.build({ [FILE]: { mcpServers: { broken: { command: 42 } } } });
    const added = await updateMcpConfig(org, [{ path: ['mcpServers', 'files'], value: { command: 'npx' } }]);
    expect(added.ok).toBe(true);
    const bad = await updateMcpConfig(org, [{ path: ['mcpServers', 'web'], value: { url: 'ftp://x' } }]);
    expect(bad.ok ? [] : bad.error).toEqual([
      expect.objectContaining({ field: 'mcpServers.web.url', message: 'url must be an http or https URL' }),
    ]);
    expect(JSON.parse(readFileSync(join(org, FILE), 'utf8')).mcpServers.web).toBeUndefined();
  });

  it('a file that is not JSON, or whose server list is not an object, is the whole file’s problem', async () => {
    const org = orgs.build({ [FILE]: '{ "mcpServers": [1, 2] }' });
    const listed = await readMcpConfig(org);
    expect(listed.ok ? [] : listed.error).toEqual([
      expect.objectContaining({
        field: 'mcpServers',
        message: 'mcpServers must be an object of servers by name',
      }),
    ]);
    writeFileSync(join(org, FILE), '{ "mcpServers": ');
    expect((await readMcpConfig(org)).ok).toBe(false);
  });
});

describe('the spellings of other apps', () => {
  it("reads VS Code's `servers` with `type` stdio, http and sse, located under servers", async () => {
    const config = await read(
      JSON.stringify(
        {
          inputs: [{ type: 'promptString', id: 'token', description: 'Token', password: true }],
          servers: {
            files: { type: 'stdio', command: 'npx', args: ['server-files'] },
            remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
            legacy: { type: 'sse', url: 'https://old.example.com/sse' },
            mixed: { type: 'http', command: 'npx' },
            asked: { type: 'http', url: 'https://a.example.com/mcp', headers: { 'X-Key': '${input:token}' } },
          },
        },
        null,
        2,
      ),
    );
    expect(Object.keys(config.servers)).toEqual(['files', 'remote', 'legacy']);
    expect(config.list).toBe('servers');
    expect(httpTransportOf(config.servers.remote as McpHttpServer)).toBe('streamable-http');
    expect(httpTransportOf(config.servers.legacy as McpHttpServer)).toBe('sse');
    expect(problemsOf(config.entries, 'mixed')).toEqual([
      expect.objectContaining({
        field: 'servers.mixed.type',
        message:
          'type "http" reaches a server at a URL: give "url", or write "type": "stdio" to start a program',
      }),
    ]);
    expect(problemsOf(config.entries, 'asked')).toEqual([
      expect.objectContaining({
        field: 'servers.asked.headers.X-Key',
        message: expect.stringContaining('a "${input:…}" value is asked for by VS Code'),
      }),
    ]);
  });

  it('a server at a URL without a type tries Streamable HTTP, then legacy SSE', async () => {
    const config = await read('{ "mcpServers": { "remote": { "url": "http://127.0.0.1:9/sse" } } }');
    expect(httpTransportOf(config.servers.remote as McpHttpServer)).toBe('either');
  });

  it('an unknown type names the ones there are', async () => {
    const config = await read(
      '{ "mcpServers": { "remote": { "type": "websocket", "url": "https://x.example/" } } }',
    );
    expect(problemsOf(config.entries, 'remote')).toEqual([
      expect.objectContaining({
        field: 'mcpServers.remote.type',
        message: 'type must be one of stdio, http, streamable-http, streamableHttp, sse',
      }),
    ]);
  });

  it('a name listed under both mcpServers and servers is a problem of the second', async () => {
    const config = await read(
      '{ "mcpServers": { "files": { "command": "npx" } }, "servers": { "files": { "command": "node" } } }',
    );
    expect(config.servers.files).toMatchObject({ command: 'npx' });
    expect(config.entries.filter((entry) => !entry.valid)).toEqual([
      expect.objectContaining({
        list: 'servers',
        problems: [
          expect.objectContaining({
            message: '"files" is also listed under mcpServers: a server name is used once',
          }),
        ],
      }),
    ]);
  });
});

describe("the hub's cards for mcp.json's entries", () => {
  it('a bad entry gets a card of its own with its problems (whatever its name); a name listed twice is the file’s problem', async () => {
    const org = orgs.build({
      [FILE]: {
        mcpServers: { files: { command: 'npx' } },
        servers: { files: { command: 'node' }, constructor: { command: 42 } },
      },
    });
    const hub = new McpHub(org, {
      orgPath: org,
      secret: () => undefined,
      refusal: refusesNothing,
      redact: (text) => text,
    });
    await hub.sync(DEFAULT_ORG_POLICY, false);
    expect(
      hub.views().map((view) => [view.server, view.entryProblems.map((problem) => problem.field)]),
    ).toEqual([
      ['files', []],
      ['constructor', ['servers.constructor.command']],
    ]);
    expect(hub.problems).toEqual([
      expect.objectContaining({
        field: 'servers.files',
        message: '"files" is also listed under mcpServers: a server name is used once',
      }),
    ]);
    expect(hub.catalogEntries(['mcp__constructor__run'])).toEqual([
      expect.objectContaining({
        readiness: expect.objectContaining({
          ready: false,
          reason: expect.stringMatching(
            /^the MCP server constructor is not started: its entry in lemming\/config\/mcp\.json is not valid/,
          ),
        }),
      }),
    ]);
    await hub.stopAll();
  });
});
