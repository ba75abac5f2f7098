import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mcpToolVersion, withHintsTrusted, withListing } from '../tools/mcp/mcp-tool-record';
import { emptyTrustStore } from './test-support/trust-as-is';

const IDENTITY = 'stdio ["node","notes.mjs"]';
const listing = [
  { name: 'save', version: mcpToolVersion({ annotations: {}, description: 'Saves.', inputSchema: {} }) },
];

describe("the person's record of an org's MCP servers, in the trust record", () => {
  it('reads a trust record written before it existed, and keeps its trust and grants when it is added', async () => {
    const store = emptyTrustStore();
    const before = {
      version: 1,
      orgs: {
        '/orgs/shop': {
          trusted: { fingerprint: 'f1', items: [], at: '2025-01-01T00:00:00.000Z' },
          grants: { secrets: ['SHOP_KEY'], environment: [] },
        },
      },
    };
    writeFileSync(store.file, JSON.stringify(before));
    expect(store.record('/orgs/shop').mcp).toEqual({});
    expect(store.mcpServer('/orgs/shop', IDENTITY)).toBeUndefined();

    const changed = await store.changeMcpServer('/orgs/shop', IDENTITY, (record) =>
      withHintsTrusted(record, true),
    );
    expect(changed.ok).toBe(true);
    expect(store.record('/orgs/shop')).toMatchObject({
      trusted: { fingerprint: 'f1' },
      grants: { secrets: ['SHOP_KEY'] },
      mcp: { [IDENTITY]: { hintsTrusted: true, tools: {} } },
    });
    // Trusting the org again keeps the person's MCP choices.
    await store.trust('/orgs/shop', 'f2', { items: [], unreadable: [] });
    expect(store.mcpServer('/orgs/shop', IDENTITY)?.hintsTrusted).toBe(true);
  });

  it('a server listing the same tools again does not rewrite the file', async () => {
    const store = emptyTrustStore();
    const at = new Date('2025-01-02T00:00:00Z');
    await store.changeMcpServer('/orgs/shop', IDENTITY, (record) => withListing(record, listing, at));
    const compact = JSON.stringify(JSON.parse(readFileSync(store.file, 'utf8')));
    writeFileSync(store.file, compact);
    await store.changeMcpServer('/orgs/shop', IDENTITY, (record) =>
      withListing(record, listing, new Date('2025-03-04T00:00:00Z')),
    );
    expect(readFileSync(store.file, 'utf8')).toBe(compact);
    expect(store.mcpServer('/orgs/shop', IDENTITY)?.tools.save?.at).toBe(at.toISOString());
  });
});
