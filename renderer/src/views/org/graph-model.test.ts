import { describe, expect, it } from 'vitest';
import type { GraphNode, OrgGraph } from '../../../../engine/api';
import { bottlenecks, drawnEdges, nodeStatus } from './graph-model';

function node(name: string, firePoint: number, firesNextTick = true): GraphNode {
  return {
    name,
    folder: name,
    title: null,
    state: 'idle',
    stateReason: 'Has not run yet.',
    balance: null,
    costPerAction: null,
    position: null,
    readsAll: false,
    unknownNames: [],
    sendsAnywhere: false,
    schedule: { runEveryNTicks: 1, phaseOffset: 0, firePoint, firesNextTick },
  };
}

function org(nextTick: number, counts: OrgGraph['traffic']['counts'] = []): OrgGraph {
  return {
    nodes: [node('planner', 0), node('writer', 0.5), node('editor', 0), node('boss', 0, false)],
    edges: [
      { from: 'planner', to: 'writer', kind: 'read', viaWildcard: false },
      { from: 'writer', to: 'editor', kind: 'read', viaWildcard: false },
      { from: 'boss', to: 'editor', kind: 'read', viaWildcard: false },
      { from: 'editor', to: 'boss', kind: 'read', viaWildcard: true },
    ],
    nextTick,
    traffic: { fromTick: Math.max(0, nextTick - 5), windowTicks: 5, counts },
  };
}

describe('the org graph model', () => {
  it('draws named edges only; a wildcard is a badge', () => {
    expect(drawnEdges(org(1)).map((edge) => `${edge.from}->${edge.to}`)).toEqual([
      'planner->writer',
      'writer->editor',
      'boss->editor',
    ]);
  });

  it('halos an upstream agent that fires no earlier than its reader and has sent it nothing', () => {
    // The planner fires before the writer; the writer fires after the editor that reads it.
    expect(bottlenecks(org(1))).toEqual(new Map([['writer', ['editor']]]));
    expect(bottlenecks(org(3, [{ from: 'writer', to: 'editor', count: 2 }]))).toEqual(new Map());
  });

  it('calls an idle reader starved only after a whole window of ticks with nothing to read', () => {
    expect(nodeStatus(org(2), 'editor', 'idle').look).toBe('idle');
    expect(nodeStatus(org(9), 'editor', 'idle')).toMatchObject({ look: 'starved' });
    expect(nodeStatus(org(9, [{ from: 'boss', to: 'editor', count: 1 }]), 'editor', 'idle').look).toBe(
      'idle',
    );
    expect(nodeStatus(org(9), 'editor', 'paused').look).toBe('paused');
    expect(nodeStatus(org(9), 'planner', 'idle').look).toBe('idle');
  });
});
