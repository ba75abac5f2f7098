import type { GraphEdge, OrgGraph } from '../../../../engine/api';

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
 * agent, with the readers it holds up. None before the first tick ran: nobody has written anything yet.
 */
export function bottlenecks(graph: OrgGraph): Map<string, string[]> {
  const byName = new Map(graph.nodes.map((node) => [node.name, node]));
  const halos = new Map<string, string[]>();
  if (graph.nextTick === null || graph.nextTick <= 1) return halos;
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
 * Why a reader may have nothing to work with, shown on its card beside its state: it reads other agents,
 * a whole traffic window of ticks has run, and none wrote to it in that window. Null otherwise.
 */
export function starvedBecause(graph: OrgGraph, agent: string): string | null {
  const node = graph.nodes.find((candidate) => candidate.name === agent);
  const readsOthers = graph.edges.some((edge) => edge.kind === 'read' && edge.to === agent);
  // Only once a whole window of ticks has run: at the start nobody has written anything yet.
  const ticksRan = graph.nextTick !== null && graph.nextTick - 1 >= graph.traffic.windowTicks;
  if (!node?.schedule || !readsOthers || !ticksRan || received(graph, agent) > 0) return null;
  return `Nothing reached it in the last ${graph.traffic.windowTicks} ticks from the outboxes it reads.`;
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
