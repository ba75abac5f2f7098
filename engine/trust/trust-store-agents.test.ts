import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcpToolVersion, withChoice, withListing } from '../tools/mcp/mcp-tool-record';
import { emptyTrustStore } from './test-support/trust-as-is';

const ORG = '/orgs/shop';
const ADA = { id: '6f1c1d55-2f43-4d0e-9a4f-0d6f4b1f2a10', name: 'ada' };

describe('the person\'s "always" answers for an org\'s agents, in the trust record', () => {
  it('reads a record written before it existed, and keeps its trust when an answer is added', async () => {
    const store = emptyTrustStore();
    const trusted = { fingerprint: 'f1', items: [], at: '2025-01-01T00:00:00.000Z' };
    writeFileSync(
      store.file,
      JSON.stringify({ version: 1, orgs: { [ORG]: { trusted, grants: { secrets: [], environment: [] } } } }),
    );
    expect(store.agentAlways(ORG, ADA)).toEqual(new Set());
    expect((await store.allowAlways(ORG, ADA, 'shell', true)).ok).toBe(true);
    expect(store.record(ORG)).toMatchObject({
      trusted,
      agents: { [ADA.id]: { name: 'ada', always: ['shell'] } },
    });
  });

  it('holds for the agent it was given to only: not another org, another id, or a copy under another name', async () => {
    const store = emptyTrustStore();
    await store.allowAlways(ORG, ADA, 'shell', true);
    await store.allowAlways(ORG, ADA, 'http_request', true);
    expect(store.agentAlways(ORG, ADA)).toEqual(new Set(['http_request', 'shell']));
    expect(store.agentAlways('/orgs/other', ADA)).toEqual(new Set());
    expect(store.agentAlways(ORG, { ...ADA, id: '00000000-0000-4000-8000-000000000000' })).toEqual(new Set());
    expect(store.agentAlways(ORG, { ...ADA, name: 'ada_copy' })).toEqual(new Set());
  });

  it('takes an answer back, and forgets the agent when it is removed', async () => {
    const store = emptyTrustStore();
    await store.allowAlways(ORG, ADA, 'shell', true);
    await store.allowAlways(ORG, ADA, 'http_request', true);
    await store.allowAlways(ORG, ADA, 'shell', false);
    expect(store.agentAlways(ORG, ADA)).toEqual(new Set(['http_request']));
    await store.forgetAgent(ORG, ADA);
    expect(store.record(ORG).agents).toEqual({});
  });

  it("binds the MCP choices kept under an agent's name to the agent holding it, and drops them for another", async () => {
    const store = emptyTrustStore();
    const server = 'stdio ["node","notes.mjs"]';
    const version = mcpToolVersion({ annotations: {}, description: 'Saves.', inputSchema: {} });
    await store.changeMcpServer(ORG, server, (record) =>
      withChoice(
        withListing(record, [{ name: 'save', version }], new Date()),
        { server, name: 'save', version },
        'ada',
        'always',
        new Date(),
      ),
    );
    const modes = () => store.mcpServer(ORG, server)?.tools.save?.modes;
    expect((await store.bindAgentName(ORG, ADA)).ok).toBe(true);
    expect(modes()).toEqual({ ada: 'always' });
    await store.bindAgentName(ORG, ADA);
    expect(modes()).toEqual({ ada: 'always' });
    await store.bindAgentName(ORG, { ...ADA, id: '00000000-0000-4000-8000-000000000000' });
    expect(modes()).toEqual({});
  });
});
