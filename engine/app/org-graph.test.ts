import { describe, expect, it } from 'vitest';
import { permissionEdges } from './org-graph';

describe('permissionEdges', () => {
  it('draws a read edge from each outbox to its reader, and a send edge to each allowed recipient', () => {
    const { edges, unknownNames } = permissionEdges([
      { name: 'manager', readOutboxes: ['human', 'writer'], sendOutboxes: null },
      { name: 'writer', readOutboxes: ['manager'], sendOutboxes: ['manager', 'ghost'] },
      { name: 'human', readOutboxes: ['*'], sendOutboxes: null },
    ]);
    expect(edges).toEqual([
      { from: 'human', to: 'manager', kind: 'read', viaWildcard: false },
      { from: 'writer', to: 'manager', kind: 'read', viaWildcard: false },
      { from: 'manager', to: 'writer', kind: 'read', viaWildcard: false },
      { from: 'writer', to: 'manager', kind: 'send', viaWildcard: false },
      { from: 'manager', to: 'human', kind: 'read', viaWildcard: true },
      { from: 'writer', to: 'human', kind: 'read', viaWildcard: true },
    ]);
    expect(unknownNames).toEqual(new Map([['writer', ['ghost']]]));
  });

  it('an agent whose resume cannot be read has no edges of its own, and reading itself is no edge', () => {
    const { edges } = permissionEdges([
      { name: 'broken', readOutboxes: null, sendOutboxes: null },
      { name: 'solo', readOutboxes: ['solo', 'broken'], sendOutboxes: null },
    ]);
    expect(edges).toEqual([{ from: 'broken', to: 'solo', kind: 'read', viaWildcard: false }]);
  });
});
