import { describe, expect, it } from 'vitest';
import type { GraphEdge } from '../../../../engine/api';
import { edgeKey, groupBoxes, layoutAgents, NODE_HEIGHT, NODE_WIDTH } from './elk-layout';

const read = (from: string, to: string) => ({ kind: 'read', from, to, viaWildcard: false }) as GraphEdge;

const inside = (box: { x: number; y: number; width: number; height: number }, at: { x: number; y: number }) =>
  at.x >= box.x &&
  at.y >= box.y &&
  at.x + NODE_WIDTH <= box.x + box.width &&
  at.y + NODE_HEIGHT <= box.y + box.height;

describe('a department on the graph', () => {
  it('keeps its agents together in its box, and the others out of it', async () => {
    const names = ['human', 'manager', 'researcher', 'writer'];
    const edges = [
      read('human', 'manager'),
      read('manager', 'researcher'),
      read('researcher', 'writer'),
      read('writer', 'manager'),
    ];
    const groups = [{ name: 'desk', members: ['researcher', 'writer'] }];
    const layout = await layoutAgents(names, edges, groups);
    const positions = new Map(Object.entries(layout.positions));
    const [box] = groupBoxes(groups, positions);
    expect(box?.name).toBe('desk');
    expect(inside(box!, layout.positions.researcher!)).toBe(true);
    expect(inside(box!, layout.positions.writer!)).toBe(true);
    expect(inside(box!, layout.positions.human!)).toBe(false);
    expect(inside(box!, layout.positions.manager!)).toBe(false);
  });

  it('routes every edge from its source card’s right side to its reader’s left side, inside a box or not', async () => {
    const names = ['human', 'researcher', 'writer'];
    const edges = [read('human', 'writer'), read('researcher', 'writer')];
    const layout = await layoutAgents(names, edges, [{ name: 'desk', members: ['researcher', 'writer'] }]);
    for (const edge of edges) {
      const route = layout.routes[edgeKey(edge)]!;
      const from = layout.positions[edge.from]!;
      const to = layout.positions[edge.to]!;
      expect(Math.abs(route[0]!.x - (from.x + NODE_WIDTH))).toBeLessThanOrEqual(2);
      expect(Math.abs(route.at(-1)!.x - to.x)).toBeLessThanOrEqual(2);
      expect(route.at(-1)!.y).toBeGreaterThanOrEqual(to.y);
      expect(route.at(-1)!.y).toBeLessThanOrEqual(to.y + NODE_HEIGHT);
    }
  });

  it('draws no box for a department none of whose agents is on the graph', () => {
    expect(groupBoxes([{ name: 'empty', members: ['ghost'] }], new Map([['ada', { x: 0, y: 0 }]]))).toEqual(
      [],
    );
  });
});
