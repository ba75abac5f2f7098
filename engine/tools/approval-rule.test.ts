import { describe, expect, it } from 'vitest';
import { ApprovalSettings } from '../api/approval-schemas';
import { approvalNeed, defaultNeed, defaultRule } from './approval-rule';
import type { McpStanding } from './mcp/mcp-tool-record';

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

  const mcp = (annotations?: Record<string, boolean>, standing: Partial<McpStanding> = {}) => ({
    name: 'mcp__files__tool',
    kind: 'mcp',
    ...(annotations ? { annotations } : {}),
    mcpStanding: { hintsTrusted: false, changes: [], changeReason: null, modes: {}, ...standing },
  });
  const trusted = { hintsTrusted: true };

  it('asks before every call of an MCP tool whose server the person does not trust about its hints, whatever it claims', () => {
    const readOnly = { readOnlyHint: true, openWorldHint: false };
    expect(defaultNeed(mcp(readOnly), {})).toEqual({
      mode: 'ask',
      reason:
        'MCP servers describe their own tools, and you have not chosen to trust what this one says about which tools only read, so every call asks first.',
    });
    expect(defaultRule(mcp(readOnly))).toEqual({
      mode: 'ask',
      text: 'Asks before every call: you have not chosen to trust what its server says about which tools only read.',
    });
    // A tool the person has no record of at all (its server never listed it here) is not trusted either.
    expect(defaultNeed({ name: 'mcp__files__tool', kind: 'mcp', annotations: readOnly }, {}).mode).toBe(
      'ask',
    );
  });

  it("reads a trusted server's hints, with the MCP specification's defaults", () => {
    expect(defaultNeed(mcp({ readOnlyHint: true, openWorldHint: false }, trusted), {})).toEqual({
      mode: 'always',
      reason: 'Its server, whose hints you trust, says it only reads and stays on this computer.',
    });
    expect(defaultNeed(mcp({ destructiveHint: false, openWorldHint: false }, trusted), {}).mode).toBe(
      'always',
    );
    expect(defaultNeed(mcp({ destructiveHint: true, openWorldHint: false }, trusted), {})).toEqual({
      mode: 'ask',
      reason: 'Its server says it may delete or overwrite things.',
    });
    expect(defaultNeed(mcp({ readOnlyHint: true, openWorldHint: true }, trusted), {})).toEqual({
      mode: 'ask',
      reason: 'Its server says it reaches outside this computer.',
    });
    expect(defaultRule(mcp({ readOnlyHint: true, openWorldHint: false }, trusted))).toEqual({
      mode: 'always',
      text: 'Does not ask.',
    });
  });

  it('a trusted server that says nothing about a tool is not quoted as claiming anything: its silence asks, in those words', () => {
    // The specification says assume destructive and open-world; the server itself said neither.
    expect(defaultNeed(mcp(undefined, trusted), {})).toEqual({
      mode: 'ask',
      reason:
        'Its server does not say whether it changes anything or whether it reaches outside this computer.',
    });
    expect(defaultRule(mcp({}, trusted)).text).toBe(
      'Asks before every call: its server does not say whether it changes anything or whether it reaches outside this computer.',
    );
    expect(defaultNeed(mcp({ openWorldHint: false }, trusted), {}).reason).toBe(
      'Its server does not say whether it changes anything.',
    );
    expect(defaultNeed(mcp({ destructiveHint: false }, trusted), {}).reason).toBe(
      'Its server does not say whether it reaches outside this computer.',
    );
    expect(defaultNeed(mcp({ destructiveHint: true }, trusted), {}).reason).toBe(
      'Its server says it may delete or overwrite things and does not say whether it reaches outside this computer.',
    );
  });

  it('a changed MCP tool asks, even on a trusted server, and the need carries what changed', () => {
    const changed = {
      ...trusted,
      changes: ['It now claims it only reads.'],
      changeReason: 'It changed since you chose how it runs, so it asks first until you choose again.',
    };
    expect(defaultNeed(mcp({ readOnlyHint: true, openWorldHint: false }, changed), {})).toEqual({
      mode: 'ask',
      reason: 'It changed since you chose how it runs, so it asks first until you choose again.',
      changes: ['It now claims it only reads.'],
    });
    expect(defaultRule(mcp({ readOnlyHint: true, openWorldHint: false }, changed)).text).toBe(
      'Asks before every call: it changed since you chose how it runs, so it asks first until you choose again.',
    );
  });

  it("for an MCP tool, the person's own choice comes first and the org's file can only make it ask or refuse", () => {
    const orgSays = (mode: string) => ApprovalSettings.parse({ tools: { mcp__files__tool: mode } });
    const readOnly = { readOnlyHint: true, openWorldHint: false };
    // The org's "always" does not let it run unasked, on a trusted server or not.
    expect(approvalNeed(mcp(readOnly), {}, orgSays('always'), 'ada')).toMatchObject({
      mode: 'ask',
      reason: expect.stringContaining('only you can let a tool of an MCP server run without asking'),
      fromSetting: false,
    });
    expect(approvalNeed(mcp({}, trusted), {}, orgSays('always'), 'ada').mode).toBe('ask');
    expect(approvalNeed(mcp(readOnly), {}, orgSays('never'), 'ada')).toMatchObject({
      mode: 'never',
      reason: 'mcp__files__tool is set to "never allowed" for every agent in the org\'s approval settings.',
    });
    expect(approvalNeed(mcp(readOnly, { ...trusted }), {}, orgSays('ask'), 'ada').mode).toBe('ask');
    // The person's choice for the agent wins over the org's file, and holds only for that agent.
    const chosen = mcp(readOnly, { modes: { ada: 'always' } });
    expect(approvalNeed(chosen, {}, orgSays('never'), 'ada')).toEqual({
      mode: 'always',
      reason: 'You set mcp__files__tool to "always allowed" for ada.',
      fromSetting: true,
    });
    expect(approvalNeed(chosen, {}, none, 'bob').mode).toBe('ask');
  });

  it("lets the person's \"always\" win, then the agent's own setting, then the org's, then the rule", () => {
    const settings = ApprovalSettings.parse({
      tools: { shell: 'never', memory_write: 'ask' },
      agents: { writer: { shell: 'ask' } },
    });
    const shell = { name: 'shell', kind: 'shell' };
    expect(approvalNeed(shell, {}, settings, 'writer', new Set(['shell']))).toMatchObject({
      mode: 'always',
      reason: 'You let writer run shell without asking.',
      fromSetting: true,
    });
    expect(approvalNeed(shell, {}, settings, 'writer')).toMatchObject({ mode: 'ask', fromSetting: true });
    expect(approvalNeed(shell, {}, settings, 'other')).toMatchObject({
      mode: 'never',
      reason: 'shell is set to "never allowed" for every agent in the approval settings.',
    });
    expect(approvalNeed({ name: 'memory_write', kind: 'memory' }, {}, settings, 'x').mode).toBe('ask');
    expect(approvalNeed(shell, {}, none, 'x')).toMatchObject({ mode: 'ask', fromSetting: false });
  });

  it('does not let the org\'s own "always" run a tool unasked: only the person can', () => {
    const settings = ApprovalSettings.parse({
      tools: { http_request: 'always' },
      agents: { a: { shell: 'always' } },
    });
    expect(approvalNeed({ name: 'shell', kind: 'shell' }, {}, settings, 'a')).toMatchObject({
      mode: 'ask',
      reason:
        "It runs a command on this computer with your rights. The org's approval settings say it may always run, but only you can let a tool run without asking.",
      fromSetting: false,
    });
    const post = { method: 'POST', url: 'https://example.com' };
    expect(approvalNeed({ name: 'http_request', kind: 'network' }, post, settings, 'a').mode).toBe('ask');
  });

  it('judges a wrapper by the strictest setting of what it runs, along its whole chain', () => {
    const wrapper = {
      name: 'outer',
      kind: 'network',
      endsIn: { name: 'http_request', kind: 'network' as const, method: 'GET', through: ['inner'] },
    };
    const settings = (tools: Record<string, string>) => ApprovalSettings.parse({ tools });
    expect(approvalNeed(wrapper, {}, none, 'a').mode).toBe('always');
    expect(approvalNeed(wrapper, {}, settings({ http_request: 'never' }), 'a')).toMatchObject({
      mode: 'never',
      reason:
        'outer runs http_request. http_request is set to "never allowed" for every agent in the approval settings.',
    });
    expect(approvalNeed(wrapper, {}, settings({ inner: 'ask', outer: 'never' }), 'a').mode).toBe('never');
    expect(approvalNeed(wrapper, {}, settings({ inner: 'ask' }), 'a').mode).toBe('ask');
    // The person's "always" for the wrapper does not lift what they set for what it runs.
    expect(approvalNeed(wrapper, {}, settings({ http_request: 'ask' }), 'a', new Set(['outer'])).mode).toBe(
      'ask',
    );
  });

  it('judges a request carrying a method-override header by the method it names, in any case', () => {
    const http = { name: 'http_request', kind: 'network' };
    const get = (headers: Record<string, string>) => ({ method: 'GET', url: 'https://example.com', headers });
    for (const header of ['X-HTTP-Method-Override', 'x-http-method', 'X-Method-OVERRIDE'])
      expect(defaultNeed(http, get({ [header]: 'delete' })).mode).toBe('ask');
    expect(defaultNeed(http, get({ 'X-HTTP-Method-Override': 'HEAD' })).mode).toBe('always');
    expect(defaultNeed(http, get({ Accept: 'DELETE' })).mode).toBe('always');
    expect(
      defaultNeed(http, get({ 'x-http-method-override': 'GET', 'X-HTTP-Method-Override': 'DELETE' })).mode,
    ).toBe('ask');
    const templated = {
      name: 'read_it',
      kind: 'network',
      endsIn: {
        name: 'http_request',
        kind: 'network' as const,
        method: 'GET',
        headers: { 'X-HTTP-Method': '' },
      },
    };
    expect(defaultNeed(templated, {})).toMatchObject({
      mode: 'ask',
      reason:
        'read_it runs http_request. It sends a GET request that asks the server to treat it as a different method (X-HTTP-Method), which can change things on that server.',
    });
  });

  it('refuses a settings file with a mode it does not know, saying where', () => {
    const parsed = ApprovalSettings.safeParse({ agents: { a: { shell: 'sometimes' } } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('an approval setting must be "never", "ask" or "always"');
    expect(ApprovalSettings.parse({ later: 1 })).toMatchObject({ later: 1, timeout_seconds: 300 });
  });
});
