import { describe, expect, it } from 'vitest';
import type { McpStanding } from './mcp/mcp-tool-record';
import type { ApprovalSubject } from './approval-rule';
import { mayChangeTheWorld } from './side-effects';

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
