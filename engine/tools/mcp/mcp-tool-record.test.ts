import { describe, expect, it } from 'vitest';
import type { McpServerRecord } from '../../api/approval-schemas';
import type { ToolAnnotations } from '../../api/tool-schemas';
import {
  mcpServerIdentity,
  mcpStanding,
  mcpToolVersion,
  versionChanges,
  withChoice,
  withHintsTrusted,
  withListing,
} from './mcp-tool-record';

const AT = new Date('2025-01-02T03:04:05Z');
const LATER = new Date('2025-02-03T04:05:06Z');

function tool(name: string, annotations: ToolAnnotations = {}, description = `${name} does things`) {
  const version = mcpToolVersion({ annotations, description, inputSchema: { type: 'object' } });
  return { server: 'stdio ["notes"]', name, version };
}

describe("an MCP server's identity", () => {
  it('is what it runs or where it is, not its name in mcp.json', () => {
    const stdio = { command: 'npx', args: ['-y', 'server-files', '/home/me'], env: {} };
    expect(mcpServerIdentity({ ...stdio, env: { TOKEN: '${secrets.TOKEN}' } } as never)).toBe(
      'stdio ["npx","-y","server-files","/home/me"]',
    );
    expect(mcpServerIdentity({ ...stdio, args: ['-y', 'server-files', '/'] } as never)).not.toBe(
      mcpServerIdentity(stdio as never),
    );
    // Arguments with spaces cannot pass for other arguments.
    expect(mcpServerIdentity({ command: 'a b', args: [], env: {} } as never)).not.toBe(
      mcpServerIdentity({ command: 'a', args: ['b'], env: {} } as never),
    );
    expect(mcpServerIdentity({ url: 'https://MCP.example.com/mcp', headers: {} } as never)).toBe(
      'http https://mcp.example.com/mcp',
    );
  });
});

describe('what changed in an MCP tool', () => {
  it('says each changed claim, title, description and input in plain words', () => {
    const before = tool('erase', { destructiveHint: true, openWorldHint: false }).version;
    expect(versionChanges(before, before)).toEqual([]);
    expect(
      versionChanges(before, tool('erase', { readOnlyHint: true, openWorldHint: false }).version),
    ).toEqual(['It now claims it only reads.']);
    expect(
      versionChanges(
        before,
        tool('erase', { destructiveHint: false, openWorldHint: true, title: 'Eraser' }).version,
      ),
    ).toEqual([
      'It is now titled “Eraser”.',
      'It no longer says it may delete or overwrite things.',
      'It now says it reaches outside this computer.',
    ]);
    const reworded = mcpToolVersion({
      annotations: { destructiveHint: true, openWorldHint: false },
      description: 'erase does other things',
      inputSchema: { type: 'object', properties: { all: { type: 'boolean' } } },
    });
    expect(versionChanges(before, reworded)).toEqual([
      'Its description changed.',
      'The input it takes changed.',
    ]);
  });

  it("reads the specification's defaults, so saying nothing and saying the default are the same claim", () => {
    expect(
      versionChanges(tool('t').version, tool('t', { destructiveHint: true, openWorldHint: true }).version),
    ).toEqual([]);
    // A schema's key order is not a change.
    const a = mcpToolVersion({
      annotations: {},
      description: 'd',
      inputSchema: { type: 'object', required: [] },
    });
    const b = mcpToolVersion({
      annotations: {},
      description: 'd',
      inputSchema: { required: [], type: 'object' },
    });
    expect(a).toEqual(b);
  });
});

describe("the person's record of a server's tools", () => {
  it('keeps each tool as first seen: a later listing never moves it, only the person choosing again does', () => {
    const first = withListing(undefined, [tool('save', { readOnlyHint: true })], AT);
    expect(first.tools.save).toMatchObject({ at: AT.toISOString(), listed: true, replacing: [], modes: {} });
    const liar = tool('save', { readOnlyHint: false });
    const relisted = withListing(first, [liar], LATER);
    expect(relisted.tools.save?.seen).toEqual(first.tools.save?.seen);
    expect(mcpStanding(relisted, liar)).toEqual({
      hintsTrusted: false,
      changes: ['It no longer claims it only reads.'],
      changeReason: 'It changed since it was first seen here, so it asks first until you choose how it runs.',
      modes: {},
    });
    const accepted = withChoice(relisted, liar, 'ada', null, LATER);
    expect(accepted.tools.save).toMatchObject({ seen: liar.version, at: LATER.toISOString() });
    expect(mcpStanding(accepted, liar).changes).toEqual([]);
  });

  it('a tool that appears as another disappears may be that one renamed: it stays so until the person chooses', () => {
    const first = withChoice(
      withListing(undefined, [tool('save'), tool('erase')], AT),
      tool('save'),
      'ada',
      'never',
      AT,
    );
    const renamed = withListing(first, [tool('keep'), tool('erase')], LATER);
    expect(renamed.tools.save).toMatchObject({ listed: false, modes: { ada: 'never' } });
    expect(renamed.tools.keep).toMatchObject({ listed: true, replacing: ['save'] });
    const standing = mcpStanding(renamed, tool('keep'));
    expect(standing.changes).toEqual([
      'It appeared when “save” disappeared from the same server: it may be that tool under a new name.',
    ]);
    // Listed again (a restart), it is still unaccepted; a tool that appears with nothing gone is simply new.
    const restarted = withListing(renamed, [tool('keep'), tool('erase'), tool('extra')], LATER);
    expect(mcpStanding(restarted, tool('keep')).changes).toHaveLength(1);
    expect(mcpStanding(restarted, tool('extra')).changes).toEqual([]);
    expect(mcpStanding(withChoice(restarted, tool('keep'), 'ada', 'ask', LATER), tool('keep'))).toMatchObject(
      {
        changes: [],
        modes: { ada: 'ask' },
      },
    );
  });

  it("choices are for the version they were made for: a changed tool drops every agent's, and the person's new one holds", () => {
    const chosen = withChoice(
      withChoice(
        withListing(undefined, [tool('erase', { destructiveHint: true })], AT),
        tool('erase', { destructiveHint: true }),
        'ada',
        'always',
        AT,
      ),
      tool('erase', { destructiveHint: true }),
      'bob',
      'never',
      AT,
    );
    expect(mcpStanding(chosen, tool('erase', { destructiveHint: true })).modes).toEqual({
      ada: 'always',
      bob: 'never',
    });
    const quiet = tool('erase', { readOnlyHint: true });
    expect(mcpStanding(chosen, quiet)).toMatchObject({
      changes: ['It now claims it only reads.'],
      changeReason: 'It changed since you chose how it runs, so it asks first until you choose again.',
      modes: {},
    });
    expect(withChoice(chosen, quiet, 'bob', 'ask', LATER).tools.erase?.modes).toEqual({ bob: 'ask' });
  });

  it('trusting the hints is kept per server, and a tool named like an object property is never one inherited', () => {
    const record: McpServerRecord = withHintsTrusted(withListing(undefined, [tool('constructor')], AT), true);
    expect(record.hintsTrusted).toBe(true);
    expect(mcpStanding(record, tool('toString'))).toEqual({
      hintsTrusted: true,
      changes: [],
      changeReason: null,
      modes: {},
    });
    expect(mcpStanding(record, tool('constructor')).changes).toEqual([]);
    expect(withHintsTrusted(record, false).tools).toEqual(record.tools);
  });
});
