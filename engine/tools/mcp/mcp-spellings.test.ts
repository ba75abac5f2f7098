import { describe, expect, it } from 'vitest';
import { readServersFromAnySpelling, type ImportTarget } from './mcp-import';

const NOTHING_YET: ImportTarget = { servers: new Set(), secretNames: new Set() };

/** What `text` reads as, pasted by the person into an org that has `existing`. */
function pasted(text: unknown, existing: ImportTarget = NOTHING_YET) {
  const read = readServersFromAnySpelling(
    typeof text === 'string' ? text : JSON.stringify(text, null, 2),
    'pasted JSON',
    existing,
  );
  if (!read.ok) throw new Error(`not read: ${JSON.stringify(read.error)}`);
  return read.value;
}

describe('MCP servers in any app’s spelling', () => {
  it("reads VS Code's servers, type and inputs: each ${input:…} becomes a secret to ask for, the rest of the value kept", () => {
    const plan = pasted({
      inputs: [
        {
          type: 'promptString',
          id: 'github-token',
          description: 'GitHub Personal Access Token',
          password: true,
        },
      ],
      servers: {
        github: {
          type: 'http',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: { Authorization: 'Bearer ${input:github-token}' },
        },
        files: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'server-files'],
          env: { TOKEN: '${input:github-token}' },
        },
        old: { type: 'sse', url: 'https://old.example.com/sse' },
      },
    });
    expect(plan.servers).toEqual([
      {
        name: 'github',
        entry: {
          type: 'http',
          url: 'https://api.githubcopilot.com/mcp/',
          headers: { Authorization: 'Bearer ${secrets.MCP_GITHUB_GITHUB_TOKEN}' },
        },
        secrets: [],
      },
      {
        name: 'files',
        entry: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'server-files'],
          env: { TOKEN: '${secrets.MCP_FILES_GITHUB_TOKEN}' },
        },
        secrets: [],
      },
      { name: 'old', entry: { type: 'sse', url: 'https://old.example.com/sse', headers: {} }, secrets: [] },
    ]);
    expect(plan.asks).toEqual([
      { server: 'github', name: 'MCP_GITHUB_GITHUB_TOKEN', description: 'GitHub Personal Access Token' },
      { server: 'files', name: 'MCP_FILES_GITHUB_TOKEN', description: 'GitHub Personal Access Token' },
    ]);
  });

  it("reads LM Studio's literal headers into the secret store, never into the entry", () => {
    const plan = pasted({
      mcpServers: {
        hf: { url: 'https://huggingface.co/mcp', headers: { Authorization: 'Bearer hf_literal_5a7c' } },
      },
    });
    expect(plan.servers).toEqual([
      {
        name: 'hf',
        entry: {
          url: 'https://huggingface.co/mcp',
          headers: { Authorization: '${secrets.MCP_HF_AUTHORIZATION}' },
        },
        secrets: [{ name: 'MCP_HF_AUTHORIZATION', value: 'Bearer hf_literal_5a7c' }],
      },
    ]);
    expect(JSON.stringify(plan.servers.map((server) => server.entry))).not.toContain('hf_literal_5a7c');
  });

  it("reads VS Code's settings.json (mcp.servers), one server with its name (--add-mcp), and servers by name with no wrapper", () => {
    expect(
      pasted({ mcp: { servers: { a: { command: 'npx' } } } }).servers.map((server) => server.name),
    ).toEqual(['a']);
    expect(pasted({ name: 'memory', command: 'npx', args: ['server-memory'] }).servers).toEqual([
      { name: 'memory', entry: { command: 'npx', args: ['server-memory'], env: {} }, secrets: [] },
    ]);
    expect(
      pasted({ memory: { command: 'npx' }, web: { url: 'https://x.example/mcp' } }).servers.map(
        (s) => s.name,
      ),
    ).toEqual(['memory', 'web']);
  });

  it('a bad server is skipped with its problems located in what was pasted; the others are read, and names already taken are not handed out', () => {
    const plan = pasted(
      '{\n  "servers": {\n    "good": { "command": "npx", "env": { "API_KEY": "k1" } },\n    "bad": { "type": "sse", "url": "ftp://old" },\n    "files": { "command": "npx" }\n  }\n}',
      { servers: new Set(['files']), secretNames: new Set(['MCP_GOOD_API_KEY']) },
    );
    expect(plan.servers).toEqual([
      {
        name: 'good',
        entry: { command: 'npx', args: [], env: { API_KEY: '${secrets.MCP_GOOD_API_KEY_2}' } },
        secrets: [{ name: 'MCP_GOOD_API_KEY_2', value: 'k1' }],
      },
    ]);
    expect(plan.problems).toEqual([
      {
        file: 'pasted JSON',
        field: 'servers.bad.url',
        message: 'url must be an http or https URL',
        line: 4,
        column: 36,
      },
    ]);
    expect(plan.skipped).toEqual([
      { name: 'bad', reason: 'servers.bad.url: url must be an http or https URL' },
      { name: 'files', reason: 'the org already has a server with that name' },
    ]);
  });

  it('says what is wrong with text that holds no servers', () => {
    const problems = (text: string) => {
      const read = readServersFromAnySpelling(text, 'pasted JSON', NOTHING_YET);
      return read.ok ? [] : read.error.map((problem) => problem.message);
    };
    expect(problems('{ "mcpServers": ')[0]).toBeDefined();
    expect(problems('{ "command": "npx" }')).toEqual([
      'this is one server without a name: give it one ("name": "…"), or write { "mcpServers": { "<name>": … } }',
    ]);
    expect(problems('{ "theme": "dark" }')).toEqual([
      'no MCP servers found: expected "mcpServers" (Claude Desktop, Cursor, LM Studio), "servers" (VS Code) or servers by name, each with a "command" or a "url"',
    ]);
    expect(problems('[1]')).toEqual(['it is not an object of MCP servers']);
    // Hostile text nested past what anything here recurses over is refused before it is read.
    const deep = `{ "mcpServers": { "x": { "command": "npx", "extra": ${'['.repeat(100_000)}${']'.repeat(100_000)} } } }`;
    expect(problems(deep)[0]).toMatch(/nest/);
  });
});
