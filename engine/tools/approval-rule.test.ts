import { describe, expect, it } from 'vitest';
import { ApprovalSettings } from '../api/approval-schemas';
import { approvalNeed, defaultNeed, defaultRule } from './approval-rule';

const none = ApprovalSettings.parse({});

describe('the built-in "ask me first" rule', () => {
  it('asks for the shell, and for HTTP requests other than GET and HEAD', () => {
    expect(defaultNeed({ name: 'shell', kind: 'shell' }, { command: 'ls' }).mode).toBe('ask');
    const http = { name: 'http_request', kind: 'network' };
    expect(defaultNeed(http, { method: 'get', url: 'https://example.com' }).mode).toBe('always');
    expect(defaultNeed(http, { method: 'HEAD', url: 'https://example.com' }).mode).toBe('always');
    expect(defaultNeed(http, { method: 'POST', url: 'https://example.com' })).toEqual({
      mode: 'ask',
      reason: 'It sends a POST request, which can change things on that server.',
    });
    expect(defaultNeed(http, {}).mode).toBe('ask');
    expect(defaultNeed({ name: 'memory_write', kind: 'memory' }, {}).mode).toBe('always');
  });

  it('judges a composed tool by the built-in call it ends in, so a wrapper never asks less', () => {
    const wrapping = (endsIn: { name: string; kind: 'shell' | 'network' | 'file'; method?: string }) => ({
      name: 'run_it',
      kind: endsIn.kind,
      endsIn,
    });
    expect(defaultNeed(wrapping({ name: 'shell', kind: 'shell' }), { cmd: 'rm -rf shared' })).toEqual({
      mode: 'ask',
      reason: 'run_it runs shell. It runs a command on this computer with your rights.',
    });
    expect(defaultNeed(wrapping({ name: 'http_request', kind: 'network', method: 'POST' }), {}).mode).toBe(
      'ask',
    );
    expect(defaultNeed(wrapping({ name: 'http_request', kind: 'network', method: 'GET' }), {}).mode).toBe(
      'always',
    );
    // A delegate to http_request templates its method: unknown, so it asks.
    expect(defaultNeed(wrapping({ name: 'http_request', kind: 'network' }), { method: 'GET' }).mode).toBe(
      'ask',
    );
    expect(defaultRule(wrapping({ name: 'shell', kind: 'shell' }))).toEqual({
      mode: 'ask',
      text: 'It runs shell, so it asks before every command.',
    });
    expect(defaultRule(wrapping({ name: 'http_request', kind: 'network', method: 'GET' }))).toEqual({
      mode: 'always',
      text: 'Does not ask.',
    });
    expect(defaultRule(wrapping({ name: 'http_request', kind: 'network', method: 'POST' }))).toEqual({
      mode: 'ask',
      text: 'Asks before every call: it sends a POST request, which can change things on that server.',
    });
  });

  it("reads an MCP tool's hints from its descriptor, with the MCP specification's defaults", () => {
    const mcp = (annotations?: Record<string, boolean>) => ({
      name: 'mcp__files__tool',
      kind: 'mcp',
      ...(annotations ? { annotations } : {}),
    });
    expect(defaultNeed(mcp({ readOnlyHint: true, openWorldHint: false }), {}).mode).toBe('always');
    expect(defaultNeed(mcp({ destructiveHint: false, openWorldHint: false }), {}).mode).toBe('always');
    expect(defaultNeed(mcp({ destructiveHint: true, openWorldHint: false }), {})).toEqual({
      mode: 'ask',
      reason: 'Its server says it may delete or overwrite things.',
    });
    expect(defaultNeed(mcp({ readOnlyHint: true, openWorldHint: true }), {})).toEqual({
      mode: 'ask',
      reason: 'Its server says it reaches outside this computer.',
    });
    // No hints: the specification says assume destructive and open-world.
    expect(defaultNeed(mcp(), {}).mode).toBe('ask');
    expect(defaultRule(mcp({ readOnlyHint: true, openWorldHint: false }))).toEqual({
      mode: 'always',
      text: 'Does not ask.',
    });
    expect(defaultRule(mcp()).mode).toBe('ask');
  });

  it("lets the agent's own setting win over the org's, and the org's over the rule", () => {
    const settings = ApprovalSettings.parse({
      tools: { shell: 'never', memory_write: 'ask' },
      agents: { writer: { shell: 'always' } },
    });
    const shell = { name: 'shell', kind: 'shell' };
    expect(approvalNeed(shell, {}, settings, 'writer')).toMatchObject({ mode: 'always', fromSetting: true });
    expect(approvalNeed(shell, {}, settings, 'other')).toMatchObject({
      mode: 'never',
      reason: 'shell is set to "never allowed" for every agent in the approval settings.',
    });
    expect(approvalNeed({ name: 'memory_write', kind: 'memory' }, {}, settings, 'x').mode).toBe('ask');
    expect(approvalNeed(shell, {}, none, 'x')).toMatchObject({ mode: 'ask', fromSetting: false });
  });

  it('refuses a settings file with a mode it does not know, saying where', () => {
    const parsed = ApprovalSettings.safeParse({ agents: { a: { shell: 'sometimes' } } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('an approval setting must be "never", "ask" or "always"');
    expect(ApprovalSettings.parse({ later: 1 })).toMatchObject({ later: 1, timeout_seconds: 300 });
  });
});
