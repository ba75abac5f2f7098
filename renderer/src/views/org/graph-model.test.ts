import { describe, expect, it } from 'vitest';
import type { GraphNode, OrgGraph } from '../../../../engine/api';
import { bottlenecks, drawnEdges, starvedBecause } from './graph-model';

function node(name: string, firePoint: number, firesNextTick = true): GraphNode {
  return {
    name,
    folder: name,
    title: null,
    state: { kind: 'ready', words: 'Ready. It has not run yet.', lastTurnFailed: null },
    balance: null,
    costPerAction: null,
    position: null,
    readsAll: false,
    unknownNames: [],
    sendsAnywhere: false,
    schedule: {
      runEveryNTicks: 1,
      phaseOffset: 0,
      firePoint,
      firesNextTick,
      clock: null,
      switchedOff: false,
      nextDue: { tick: null, at: null, words: 'at the next tick' },
    },
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
    expect(bottlenecks(org(2))).toEqual(new Map([['writer', ['editor']]]));
    expect(bottlenecks(org(3, [{ from: 'writer', to: 'editor', count: 2 }]))).toEqual(new Map());
  });

  it('holds up no one before the first tick ran: nobody has written anything yet', () => {
    expect(bottlenecks(org(1))).toEqual(new Map());
  });

  it('says a reader has nothing to read only after a whole window of ticks with nothing to read', () => {
    expect(starvedBecause(org(2), 'editor')).toBeNull();
    expect(starvedBecause(org(9), 'editor')).toBe(
      'Nothing reached it in the last 5 ticks from the outboxes it reads.',
    );
    expect(starvedBecause(org(9, [{ from: 'boss', to: 'editor', count: 1 }]), 'editor')).toBeNull();
    expect(starvedBecause(org(9), 'planner')).toBeNull();
  });
});
