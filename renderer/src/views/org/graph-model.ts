import type { NodeLook } from '../../shared/agent-state-badge';
import type { GraphEdge, OrgGraph, RunPhase } from '../../../../engine/api';

/** What a node shows: the engine's state, and two the graph works out (the run paused, nothing to read). */

export interface NodeStatus {
  look: NodeLook;
  /** Why, in words. */
  reason: string;
}

/** Edges drawn as lines: one per agent pair by name. Wildcards (`*`) become badges on the card instead. */
export function drawnEdges(graph: OrgGraph): GraphEdge[] {
  return graph.edges.filter((edge) => !edge.viaWildcard);
}

/** Messages from → to over the graph's traffic window. */
export function trafficCount(graph: OrgGraph, from: string, to: string): number {
  return graph.traffic.counts.find((count) => count.from === from && count.to === to)?.count ?? 0;
}

function received(graph: OrgGraph, agent: string): number {
  let total = 0;
  for (const count of graph.traffic.counts) if (count.to === agent) total += count.count;
  return total;
}

/**
 * Upstream agents that have not written before a downstream reader fires in the next tick: both fire,
 * the reader no later than they do, and they sent it nothing in the traffic window. Keyed by the upstream
 * agent, with the readers it holds up.
 */
export function bottlenecks(graph: OrgGraph): Map<string, string[]> {
  const byName = new Map(graph.nodes.map((node) => [node.name, node]));
  const halos = new Map<string, string[]>();
  for (const edge of drawnEdges(graph)) {
    if (edge.kind !== 'read') continue;
    const reader = byName.get(edge.to)?.schedule;
    const writer = byName.get(edge.from)?.schedule;
    if (!reader?.firesNextTick || !writer?.firesNextTick) continue;
    const writesFirst = writer.firesNextTick && writer.firePoint < reader.firePoint;
    if (writesFirst || trafficCount(graph, edge.from, edge.to) > 0) continue;
    halos.set(edge.from, [...(halos.get(edge.from) ?? []), edge.to]);
  }
  return halos;
}

/**
 * The node's look: the engine's running / failing / out of credits / invalid win; an idle agent shows
 * "paused" while the run is paused, and "starved" when it reads other agents, a whole traffic window of
 * ticks has run, and none
 * wrote to it in the traffic window.
 */
export function nodeStatus(graph: OrgGraph, agent: string, runPhase: RunPhase | null): NodeStatus {
  const node = graph.nodes.find((candidate) => candidate.name === agent);
  if (!node) return { look: 'invalid', reason: 'This agent is not in the org.' };
  if (node.state !== 'idle') return { look: node.state, reason: node.stateReason };
  if (runPhase === 'paused' || runPhase === 'pausing')
    return { look: 'paused', reason: 'The run is paused; it takes its turn when the run continues.' };
  const readsOthers = graph.edges.some((edge) => edge.kind === 'read' && edge.to === agent);
  // Only once a whole window of ticks has run: at the start nobody has written anything yet.
  const ticksRan = graph.nextTick !== null && graph.nextTick - 1 >= graph.traffic.windowTicks;
  if (readsOthers && ticksRan && node.schedule !== null && received(graph, agent) === 0)
    return {
      look: 'starved',
      reason: `Nothing reached it in the last ${graph.traffic.windowTicks} ticks from the outboxes it reads.`,
    };
  return { look: 'idle', reason: node.stateReason };
}

/** Agents lit when one is hovered or selected: itself and its direct neighbours. */
export function neighbourhood(graph: OrgGraph, agent: string): Set<string> {
  const lit = new Set([agent]);
  for (const edge of drawnEdges(graph)) {
    if (edge.from === agent) lit.add(edge.to);
    if (edge.to === agent) lit.add(edge.from);
  }
  return lit;
}
