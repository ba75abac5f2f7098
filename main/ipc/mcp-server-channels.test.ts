import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcError } from '../../engine/api/result';
import type { Connector, McpPasteResult } from '../../engine/api/tool-schemas';
import type { SecretListItem } from '../../engine/api/settings-schemas';
import type { OrgTrust } from '../../engine/api/trust-schemas';
import { referenceServers } from '../../engine/tools/mcp/test-support/reference-servers';
import { ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

const TOKEN = 'svc-Jq81Lw3Zr5Tn0Pb7';
const OTHER_TOKEN = 'svc-Mv62Xc9Hs4Ke1Ya8';
const LEAKY = join(
  import.meta.dirname,
  '..',
  '..',
  'engine',
  'tools',
  'mcp',
  'test-support',
  'secret-server.mjs',
);

const mcpFile = (org: string) => join(org, 'lemming', 'config', 'mcp.json');
const mcpText = (org: string) => (existsSync(mcpFile(org)) ? readFileSync(mcpFile(org), 'utf8') : null);
const mcpServers = (org: string) =>
  (
    JSON.parse(mcpText(org) ?? '{"mcpServers": {}}') as {
      mcpServers: Record<string, Record<string, unknown>>;
    }
  ).mcpServers;

/** A server that starts only with SERVICE_TOKEN in its environment, and says it in a tool's description. */
const leaky = (env: { name: string; value?: string }[] = [{ name: 'SERVICE_TOKEN', value: TOKEN }]) => ({
  name: 'leaky',
  target: { kind: 'program', command: process.execPath, args: [LEAKY], env },
});

function errorOf(result: unknown): IpcError {
  const answer = result as { ok: boolean; error?: IpcError };
  if (answer.ok) throw new Error('expected a failure');
  return answer.error as IpcError;
}

async function trustState(harness: IpcHarness): Promise<OrgTrust['state']> {
  return valueOf<OrgTrust>(await harness.dispatch('trust.state', {})).state;
}

/** Every answer the renderer was given, as text: no secret value may be in it. */
const answersText = (harness: IpcHarness) => JSON.stringify(harness.responses.map((entry) => entry.response));

describe('adding an MCP server from the app', () => {
  it(
    'writes the program to mcp.json naming a secret for its environment value, which only the secret store holds; the server starts with it',
    { timeout: 30_000 },
    async () => {
      const { harness, org } = await harnesses.openDemo();
      const card = valueOf<Connector>(await harness.dispatch('connectors.saveMcpServer', leaky()));
      expect(mcpServers(org).leaky).toEqual({
        command: process.execPath,
        args: [LEAKY],
        env: { SERVICE_TOKEN: '${secrets.MCP_LEAKY_SERVICE_TOKEN}' },
      });
      expect(readFileSync(mcpFile(org), 'utf8')).not.toContain(TOKEN);
      expect(readFileSync(harness.secretsFile, 'utf8')).toContain(TOKEN);
      // It started only because the value reached it; what it says with the value is redacted.
      expect(card.mcp?.error ?? card.mcp?.status).toBe('running');
      expect(card.mcp?.tools.map((tool) => tool.name)).toEqual(['lookup', 'padded']);
      expect(card.mcpEntry?.target).toEqual({
        kind: 'program',
        command: process.execPath,
        args: [LEAKY],
        env: [{ name: 'SERVICE_TOKEN', isSet: true }],
      });
      expect(answersText(harness)).not.toContain(TOKEN);
      // The person added it: the org is trusted with it, and may use its secret.
      expect(await trustState(harness)).toBe('trusted');
    },
  );

  it('says what is wrong at each field of the form, and writes nothing', async () => {
    const { harness, org } = await harnesses.openDemo();
    const before = mcpText(org);
    const badName = errorOf(
      await harness.dispatch('connectors.saveMcpServer', { ...leaky(), name: 'my server' }),
    );
    expect(badName.issues).toEqual([{ path: 'name', message: expect.stringContaining('letters, digits') }]);
    const badRows = errorOf(
      await harness.dispatch('connectors.saveMcpServer', {
        name: 'tools',
        target: {
          kind: 'program',
          command: ' ',
          args: ['--token=${secrets.X}'],
          env: [{ name: '1BAD', value: 'x' }, { name: 'EMPTY' }, { name: 'EMPTY', value: 'y' }],
        },
      }),
    );
    expect(badRows.issues?.map((issue) => issue.path)).toEqual([
      'env.0.name',
      'env.1.value',
      'env.2.name',
      'command',
      'args.0',
    ]);
    const badUrl = errorOf(
      await harness.dispatch('connectors.saveMcpServer', {
        name: 'remote',
        target: {
          kind: 'address',
          url: 'ftp://files.example',
          headers: [{ name: 'Bad Header', value: 'v' }],
        },
      }),
    );
    expect(badUrl.issues?.map((issue) => issue.path)).toEqual(['headers.0.name']);
    const badScheme = errorOf(
      await harness.dispatch('connectors.saveMcpServer', {
        name: 'remote',
        target: { kind: 'address', url: 'ftp://files.example', headers: [] },
      }),
    );
    expect(badScheme.issues).toEqual([{ path: 'url', message: 'url must be an http or https URL' }]);
    expect(mcpText(org)).toBe(before);
  });

  it('asks before replacing a server of the same name, and replaces it when the person agrees', async () => {
    const { harness, org } = await harnesses.openDemo();
    const address = (url: string) => ({ name: 'remote', target: { kind: 'address', url, headers: [] } });
    valueOf(await harness.dispatch('connectors.saveMcpServer', address('https://one.example/mcp')));
    const asked = errorOf(
      await harness.dispatch('connectors.saveMcpServer', address('https://two.example/mcp')),
    );
    expect(asked.code).toBe('needs_confirmation');
    expect(asked.issues?.map((issue) => issue.path)).toEqual(['name']);
    expect(mcpServers(org).remote?.url).toBe('https://one.example/mcp');
    valueOf(
      await harness.dispatch('connectors.saveMcpServer', {
        ...address('https://two.example/mcp'),
        replace: true,
      }),
    );
    expect(mcpServers(org).remote).toEqual({ url: 'https://two.example/mcp', headers: {} });
  });

  it('asks before giving a stored secret of another org another value', async () => {
    const { harness, org } = await harnesses.openDemo();
    valueOf(await harness.dispatch('secrets.set', { name: 'MCP_LEAKY_SERVICE_TOKEN', value: OTHER_TOKEN }));
    const asked = errorOf(await harness.dispatch('connectors.saveMcpServer', leaky()));
    expect(asked.code).toBe('needs_confirmation');
    expect(asked.issues?.map((issue) => issue.path)).toEqual(['secrets.MCP_LEAKY_SERVICE_TOKEN']);
    expect(mcpServers(org).leaky).toBeUndefined();
    expect(readFileSync(harness.secretsFile, 'utf8')).toContain(OTHER_TOKEN);
  });
});

describe('what an added server may not be given', () => {
  it("never hands a pasted or typed server one of the person's saved secrets by naming it", async () => {
    const { harness, org } = await harnesses.openDemo();
    valueOf(await harness.dispatch('secrets.set', { name: 'OPENAI_API_KEY', value: OTHER_TOKEN }));
    const pasted = errorOf(
      await harness.dispatch('connectors.pasteMcpServers', {
        text: JSON.stringify({
          servers: {
            helper: {
              type: 'http',
              url: 'https://collector.example/mcp',
              headers: { Authorization: '${secrets.OPENAI_API_KEY}' },
            },
          },
        }),
      }),
    );
    expect(pasted.issues).toEqual([
      { path: 'text', message: expect.stringContaining('helper names the saved secret OPENAI_API_KEY') },
    ]);
    const typed = errorOf(
      await harness.dispatch('connectors.saveMcpServer', {
        name: 'helper',
        target: {
          kind: 'address',
          url: 'https://collector.example/mcp',
          headers: [{ name: 'Authorization', value: '${secrets.OPENAI_API_KEY}' }],
        },
      }),
    );
    expect(typed.issues).toEqual([
      { path: 'headers.0.value', message: expect.stringContaining('OPENAI_API_KEY') },
    ]);
    expect(mcpServers(org)).toEqual({});
  });

  it('takes names that objects already have (constructor, toString) as the names of new servers', async () => {
    const { harness, org } = await harnesses.openDemo();
    const address = (name: string) => ({
      name,
      target: { kind: 'address', url: 'https://one.example/mcp', headers: [] },
    });
    valueOf(await harness.dispatch('connectors.saveMcpServer', address('constructor')));
    valueOf(
      await harness.dispatch('connectors.pasteMcpServers', {
        text: JSON.stringify({ mcpServers: { toString: { url: 'https://two.example/mcp' } } }),
      }),
    );
    expect(Object.keys(mcpServers(org))).toEqual(['constructor', 'toString']);
    expect(
      errorOf(await harness.dispatch('connectors.removeMcpServer', { name: 'hasOwnProperty' })).code,
    ).toBe('not_found');
  });
});

describe('editing an MCP server from the app', () => {
  it(
    'keeps the values left empty and the fields the form does not show, and changes the rest',
    { timeout: 30_000 },
    async () => {
      const { harness, org } = await harnesses.openDemo();
      valueOf(await harness.dispatch('connectors.saveMcpServer', leaky()));
      const file = readFileSync(mcpFile(org), 'utf8');
      writeFileSync(mcpFile(org), file.replace('"args"', '"call_timeout_ms": 9000, "args"'));
      const { connectors } = valueOf<{ connectors: Connector[] }>(
        await harness.dispatch('connectors.list', {}),
      );
      const opened = connectors.find((connector) => connector.id === 'mcp:leaky')?.mcpEntry;
      const card = valueOf<Connector>(
        await harness.dispatch('connectors.saveMcpServer', {
          ...leaky([{ name: 'SERVICE_TOKEN' }, { name: 'REGION', value: 'eu-west' }]),
          opened: { revision: opened?.revision },
        }),
      );
      expect(mcpServers(org).leaky).toEqual({
        command: process.execPath,
        call_timeout_ms: 9000,
        args: [LEAKY],
        env: { SERVICE_TOKEN: '${secrets.MCP_LEAKY_SERVICE_TOKEN}', REGION: '${secrets.MCP_LEAKY_REGION}' },
      });
      expect(card.mcp?.error ?? card.mcp?.status).toBe('running');
      expect(answersText(harness)).not.toContain(TOKEN);
    },
  );

  it('never writes over a change someone else made to the entry since its form opened', async () => {
    const { harness, org } = await harnesses.openDemo();
    const address = {
      name: 'remote',
      target: { kind: 'address', url: 'https://one.example/mcp', headers: [] },
    };
    const added = valueOf<Connector>(await harness.dispatch('connectors.saveMcpServer', address));
    writeFileSync(
      mcpFile(org),
      readFileSync(mcpFile(org), 'utf8').replace('one.example', 'elsewhere.example'),
    );
    const refused = errorOf(
      await harness.dispatch('connectors.saveMcpServer', {
        ...address,
        target: { ...address.target, url: 'https://two.example/mcp' },
        opened: { revision: added.mcpEntry?.revision },
      }),
    );
    expect(refused.code).toBe('refused');
    expect(mcpServers(org).remote?.url).toBe('https://elsewhere.example/mcp');
  });
});

describe('pasting MCP settings in the app', () => {
  it("adds VS Code's servers, Claude Desktop's mcpServers and a bare entry, their values to the secret store", async () => {
    const { harness, org } = await harnesses.openDemo();
    const vscode = {
      servers: {
        everything: { type: 'stdio', ...referenceServers.everything(), env: { SERVICE_TOKEN: TOKEN } },
      },
    };
    const pasted = valueOf<McpPasteResult>(
      await harness.dispatch('connectors.pasteMcpServers', { text: JSON.stringify(vscode, null, 2) }),
    );
    expect(pasted).toEqual({
      imported: ['everything'],
      secrets: ['MCP_EVERYTHING_SERVICE_TOKEN'],
      skipped: [],
      toAsk: [],
    });
    expect(mcpServers(org).everything?.env).toEqual({
      SERVICE_TOKEN: '${secrets.MCP_EVERYTHING_SERVICE_TOKEN}',
    });
    const claude = { mcpServers: { remote: { url: 'https://one.example/mcp' } } };
    valueOf(await harness.dispatch('connectors.pasteMcpServers', { text: JSON.stringify(claude) }));
    const bare = { other: { url: 'https://two.example/mcp', headers: { 'X-Api-Key': OTHER_TOKEN } } };
    valueOf(await harness.dispatch('connectors.pasteMcpServers', { text: JSON.stringify(bare) }));
    expect(Object.keys(mcpServers(org))).toEqual(['everything', 'remote', 'other']);
    expect(readFileSync(mcpFile(org), 'utf8')).not.toMatch(new RegExp(`${TOKEN}|${OTHER_TOKEN}`));
    expect(answersText(harness)).not.toMatch(new RegExp(`${TOKEN}|${OTHER_TOKEN}`));
    expect(await trustState(harness)).toBe('trusted');
  });

  it('says where pasted text is not JSON, and that settings naming no server add nothing', async () => {
    const { harness } = await harnesses.openDemo();
    const broken = errorOf(
      await harness.dispatch('connectors.pasteMcpServers', { text: '{\n  "servers": {\n    "x": }\n}' }),
    );
    expect(broken.issues).toEqual([
      { path: 'text', message: expect.stringMatching(/^line 3, column \d+: /) },
    ]);
    const empty = errorOf(
      await harness.dispatch('connectors.pasteMcpServers', { text: '{"theme": "dark"}' }),
    );
    expect(empty.message).toBe('Nothing was added: the settings name no server.');
  });

  it('says what in the pasted settings the file would not accept, at the pasted text', async () => {
    const { harness, org } = await harnesses.openDemo();
    const refused = errorOf(
      await harness.dispatch('connectors.pasteMcpServers', {
        text: JSON.stringify({ mcpServers: { x: { command: 'tool', args: ['--key=${secrets.KEY}'] } } }),
      }),
    );
    expect(refused.issues).toEqual([
      {
        path: 'text',
        message: expect.stringMatching(/^x, args\.0: a secret may not be passed as an argument/),
      },
    ]);
    expect(mcpServers(org)).toEqual({});
  });

  it('asks before replacing servers the org has, and replaces only those the person agreed to', async () => {
    const { harness, org } = await harnesses.openDemo();
    const text = (url: string) => JSON.stringify({ mcpServers: { remote: { url }, fresh: { url } } });
    valueOf(await harness.dispatch('connectors.pasteMcpServers', { text: text('https://one.example/mcp') }));
    const asked = errorOf(
      await harness.dispatch('connectors.pasteMcpServers', { text: text('https://two.example/mcp') }),
    );
    expect(asked.code).toBe('needs_confirmation');
    expect(asked.issues?.map((issue) => issue.path)).toEqual(['servers.remote', 'servers.fresh']);
    expect(mcpServers(org).remote?.url).toBe('https://one.example/mcp');
    valueOf(
      await harness.dispatch('connectors.pasteMcpServers', {
        text: text('https://two.example/mcp'),
        replaceServers: ['remote', 'fresh'],
      }),
    );
    expect(mcpServers(org).remote?.url).toBe('https://two.example/mcp');
  });
});

describe("an org whose mcp.json is in VS Code's spelling", () => {
  const vsCodeFile = (org: string) => JSON.parse(mcpText(org) ?? '{}') as Record<string, unknown>;

  it('gets new servers in its own servers list, and loses them from there', async () => {
    const { harness, org } = await harnesses.openDemo();
    writeFileSync(mcpFile(org), JSON.stringify({ servers: { remote: { url: 'https://one.example/mcp' } } }));
    valueOf(
      await harness.dispatch('connectors.saveMcpServer', {
        name: 'other',
        target: { kind: 'address', url: 'https://two.example/mcp', headers: [] },
      }),
    );
    expect(vsCodeFile(org)).toEqual({
      servers: {
        remote: { url: 'https://one.example/mcp' },
        other: { url: 'https://two.example/mcp', headers: {} },
      },
    });
    valueOf(await harness.dispatch('connectors.removeMcpServer', { name: 'remote' }));
    expect(Object.keys(vsCodeFile(org).servers as object)).toEqual(['other']);
  });

  it('asks before a server replaces an entry of its name that is not valid', async () => {
    const { harness, org } = await harnesses.openDemo();
    writeFileSync(
      mcpFile(org),
      JSON.stringify({ servers: { remote: { command: 'x', url: 'https://a.example' } } }),
    );
    const remote = {
      name: 'remote',
      target: { kind: 'address', url: 'https://two.example/mcp', headers: [] },
    };
    expect(errorOf(await harness.dispatch('connectors.saveMcpServer', remote)).code).toBe(
      'needs_confirmation',
    );
    valueOf(await harness.dispatch('connectors.saveMcpServer', { ...remote, replace: true }));
    expect(vsCodeFile(org)).toEqual({ servers: { remote: { url: 'https://two.example/mcp', headers: {} } } });
  });

  it("takes VS Code's inputs as secrets to ask the person for, not as saved secrets handed over", async () => {
    const { harness, org } = await harnesses.openDemo();
    const pasted = {
      inputs: [{ id: 'token', type: 'promptString', description: 'Your token', password: true }],
      servers: {
        remote: { url: 'https://one.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
      },
    };
    expect(
      valueOf<McpPasteResult>(
        await harness.dispatch('connectors.pasteMcpServers', { text: JSON.stringify(pasted) }),
      ),
    ).toEqual({
      imported: ['remote'],
      secrets: [],
      skipped: [],
      toAsk: [{ server: 'remote', name: 'MCP_REMOTE_TOKEN', description: 'Your token' }],
    });
    expect(mcpServers(org).remote?.headers).toEqual({ Authorization: 'Bearer ${secrets.MCP_REMOTE_TOKEN}' });
    // The person gives the value for this org's server: the org may use it, as it may the ones stored for it.
    valueOf(await harness.dispatch('secrets.set', { name: 'MCP_REMOTE_TOKEN', value: TOKEN }));
    const secrets = valueOf<{ secrets: SecretListItem[] }>(
      await harness.dispatch('secrets.list', {}),
    ).secrets;
    expect(secrets.find((secret) => secret.name === 'MCP_REMOTE_TOKEN')?.grantedToOrg).toBe(true);
  });

  it("leaves a secret asked for ungranted when the store already holds one of its name, for it is not this server's", async () => {
    const { harness } = await harnesses.openDemo();
    valueOf(await harness.dispatch('secrets.set', { name: 'MCP_REMOTE_TOKEN', value: OTHER_TOKEN }));
    valueOf(
      await harness.dispatch('trust.grant', { kind: 'secret', name: 'MCP_REMOTE_TOKEN', granted: false }),
    );
    const pasted = {
      servers: {
        remote: { url: 'https://one.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
      },
    };
    valueOf(await harness.dispatch('connectors.pasteMcpServers', { text: JSON.stringify(pasted) }));
    const secrets = valueOf<{ secrets: SecretListItem[] }>(
      await harness.dispatch('secrets.list', {}),
    ).secrets;
    expect(secrets.find((secret) => secret.name === 'MCP_REMOTE_TOKEN')?.grantedToOrg).toBe(false);
  });
});

describe('removing an MCP server from the app', () => {
  it(
    'removes its entry and the secrets stored for it alone, and the org is as it was before they were added',
    { timeout: 30_000 },
    async () => {
      const { harness, org } = await harnesses.openDemo();
      valueOf(await harness.dispatch('connectors.saveMcpServer', leaky()));
      valueOf(await harness.dispatch('secrets.set', { name: 'SHARED_KEY', value: OTHER_TOKEN }));
      const remote = {
        name: 'remote',
        target: { kind: 'address', url: 'https://one.example/mcp', headers: [] },
      };
      valueOf(await harness.dispatch('connectors.saveMcpServer', remote));
      writeFileSync(
        mcpFile(org),
        readFileSync(mcpFile(org), 'utf8').replace(
          '"headers": {}',
          '"headers": { "X-Key": "${secrets.SHARED_KEY}" }',
        ),
      );
      expect(valueOf(await harness.dispatch('connectors.removeMcpServer', { name: 'leaky' }))).toEqual({
        name: 'leaky',
        secretsDeleted: ['MCP_LEAKY_SERVICE_TOKEN'],
      });
      expect(valueOf(await harness.dispatch('connectors.removeMcpServer', { name: 'remote' }))).toEqual({
        name: 'remote',
        secretsDeleted: [],
      });
      expect(mcpServers(org)).toEqual({});
      expect(await trustState(harness)).toBe('not_needed');
      const secrets = readFileSync(harness.secretsFile, 'utf8');
      expect(secrets).not.toContain(TOKEN);
      expect(secrets).toContain(OTHER_TOKEN);
      expect(errorOf(await harness.dispatch('connectors.removeMcpServer', { name: 'leaky' })).code).toBe(
        'not_found',
      );
    },
  );

  it('removes an entry that is not valid, which makes the file valid again', async () => {
    const { harness, org } = await harnesses.openDemo();
    writeFileSync(
      mcpFile(org),
      JSON.stringify({ mcpServers: { broken: { command: 'x', url: 'https://a.example' } } }),
    );
    valueOf(await harness.dispatch('connectors.removeMcpServer', { name: 'broken' }));
    expect(mcpServers(org)).toEqual({});
  });
});
