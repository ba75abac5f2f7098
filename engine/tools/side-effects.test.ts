import { describe, expect, it } from 'vitest';
import type { McpStanding } from './mcp/mcp-tool-record';
import type { ApprovalSubject } from './approval-rule';
import { mayChangeTheWorld, onlyReads } from './side-effects';

const trusted: McpStanding = { hintsTrusted: true, changes: [], changeReason: null, modes: {} };
const untrusted: McpStanding = { ...trusted, hintsTrusted: false };

describe('which calls may change things outside their turn', () => {
  it.each<[string, ApprovalSubject, unknown, boolean]>([
    ['the shell', { name: 'shell', kind: 'shell' }, { command: 'ls' }, true],
    ['a file write', { name: 'file_write', kind: 'file' }, { path: 'a', content: '' }, true],
    ["codex's apply_patch", { name: 'apply_patch', kind: 'file' }, {}, true],
    ['creating an agent', { name: 'create_agent', kind: 'org' }, {}, true],
    ['a file read', { name: 'file_read', kind: 'file' }, { path: 'a' }, false],
    ['a memory write (kept with the turn)', { name: 'memory_write', kind: 'memory' }, {}, false],
    ['an HTTP GET', { name: 'http_request', kind: 'network' }, { method: 'GET', url: 'u' }, false],
    ['an HTTP POST', { name: 'http_request', kind: 'network' }, { method: 'POST', url: 'u' }, true],
    [
      'a GET that asks to be taken as a DELETE',
      { name: 'http_request', kind: 'network' },
      { method: 'GET', url: 'u', headers: { 'X-HTTP-Method-Override': 'DELETE' } },
      true,
    ],
    [
      'an MCP tool that says it only reads, on a server whose hints are not trusted',
      { name: 'mcp__s__t', kind: 'mcp', annotations: { readOnlyHint: true }, mcpStanding: untrusted },
      {},
      true,
    ],
    [
      'an MCP tool that says it only reads, on a server whose hints are trusted',
      { name: 'mcp__s__t', kind: 'mcp', annotations: { readOnlyHint: true }, mcpStanding: trusted },
      {},
      false,
    ],
    [
      'an MCP tool without hints on a trusted server',
      { name: 'mcp__s__t', kind: 'mcp', annotations: {}, mcpStanding: trusted },
      {},
      true,
    ],
    [
      'a trusted read-only MCP tool that changed since the person chose',
      {
        name: 'mcp__s__t',
        kind: 'mcp',
        annotations: { readOnlyHint: true },
        mcpStanding: { ...trusted, changeReason: 'It changed.', changes: ['It changed.'] },
      },
      {},
      true,
    ],
    [
      'a composed tool that ends in a GET',
      { name: 'weather', kind: 'network', endsIn: { name: 'http_request', kind: 'network', method: 'GET' } },
      {},
      false,
    ],
    [
      'a composed tool whose method is templated',
      { name: 'poke', kind: 'network', endsIn: { name: 'http_request', kind: 'network' } },
      {},
      true,
    ],
    [
      'a composed tool that ends in the shell',
      { name: 'build', kind: 'shell', endsIn: { name: 'shell', kind: 'shell' } },
      {},
      true,
    ],
  ])('%s', (_what, subject, args, expected) => {
    expect(mayChangeTheWorld(subject, args)).toBe(expected);
  });
});

describe('which calls a rehearsal runs for real: only those known to only read', () => {
  it.each<[string, ApprovalSubject, boolean]>([
    ['a file read', { name: 'file_read', kind: 'file' }, true],
    ["gemini's glob", { name: 'glob', kind: 'file' }, true],
    ['a memory read', { name: 'memory_read', kind: 'memory' }, true],
    [
      'an MCP server’s resources, read by the engine',
      { name: 'mcp_resources', kind: 'mcp', onlyReads: true },
      true,
    ],
    ['a memory write', { name: 'memory_write', kind: 'memory' }, false],
    ['an HTTP GET (it reaches out)', { name: 'http_request', kind: 'network' }, false],
    [
      'a REST API tool that ends in a GET',
      { name: 'weather', kind: 'network', endsIn: { name: 'http_request', kind: 'network', method: 'GET' } },
      false,
    ],
    [
      'a composed tool that ends in a file read',
      { name: 'peek', kind: 'file', endsIn: { name: 'file_read', kind: 'file' } },
      true,
    ],
    ['the shell', { name: 'shell', kind: 'shell' }, false],
    ['a tool added later that says nothing of itself', { name: 'brand_new_tool', kind: 'org' }, false],
    [
      'an MCP tool claiming to only read, on a server whose hints are not trusted',
      { name: 'mcp__s__t', kind: 'mcp', annotations: { readOnlyHint: true }, mcpStanding: untrusted },
      false,
    ],
    [
      'an MCP tool claiming to only read, on a server whose hints are trusted',
      { name: 'mcp__s__t', kind: 'mcp', annotations: { readOnlyHint: true }, mcpStanding: trusted },
      true,
    ],
  ])('%s', (_what, subject, expected) => {
    expect(onlyReads(subject)).toBe(expected);
  });
});
