import type { GraphEdge, GraphNode, OrgGraph } from '../api/org-schemas';
import { defaultCreditEntry, readCredits } from '../org/credits-file';
import { discoverAgents } from '../org/discover';
import { nameOf } from './agent-lookup';
import { agentStates } from './agent-states';
import { nextDueOf, tickPace } from './next-due';
import { fromMicros } from '../credits/credit-amount';
import { firePoint, firesAt } from '../org/schedule';
import { readPositions } from './layout-file';
import { messageTraffic, TRAFFIC_WINDOW_TICKS } from './message-traffic';
import type { OrgContext } from './org-context';

/** What the graph needs of one agent's permissions; null lists for an agent whose resume cannot be read. */
export interface AgentLinks {
  name: string;
  readOutboxes: readonly string[] | null;
  sendOutboxes: readonly string[] | null;
}

/**
 * Message-flow edges between the agents: `from → to` for each outbox `to` reads (`*` meaning every
 * other agent) and each recipient `from` may send to. Names that are no agent are reported, not drawn.
 */
export function permissionEdges(agents: readonly AgentLinks[]): {
  edges: GraphEdge[];
  unknownNames: Map<string, string[]>;
} {
  const names = new Set(agents.map((agent) => agent.name));
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const unknownNames = new Map<string, string[]>();
  const add = (edge: GraphEdge) => {
    const key = `${edge.kind}:${edge.from}:${edge.to}`;
    if (edge.from === edge.to || seen.has(key)) return;
    seen.add(key);
    edges.push(edge);
  };
  const unknown = (agent: string, name: string) => {
    const list = unknownNames.get(agent) ?? [];
    if (!list.includes(name)) list.push(name);
    unknownNames.set(agent, list);
  };
  for (const agent of agents) {
    for (const source of agent.readOutboxes ?? []) {
      if (source === '*')
        for (const other of names) add({ from: other, to: agent.name, kind: 'read', viaWildcard: true });
      else if (names.has(source)) add({ from: source, to: agent.name, kind: 'read', viaWildcard: false });
      else unknown(agent.name, source);
    }
    for (const recipient of agent.sendOutboxes ?? []) {
      if (recipient === '*')
        for (const other of names) add({ from: agent.name, to: other, kind: 'send', viaWildcard: true });
      else if (names.has(recipient))
        add({ from: agent.name, to: recipient, kind: 'send', viaWildcard: false });
      else unknown(agent.name, recipient);
    }
  }
  return { edges, unknownNames };
}

export async function orgGraph(
  context: OrgContext,
  logError?: (context: string, error: unknown) => void,
): Promise<OrgGraph> {
  const [agents, layout, credits] = await Promise.all([
    discoverAgents(context.orgPath),
    readPositions(context.orgPath),
    readCredits(context.orgPath),
  ]);
  const states = await agentStates(context, agents);
  if (!layout.ok) logError?.('reading node positions', new Error(layout.error));
  const positions = layout.ok ? layout.value : {};
  const links: AgentLinks[] = agents.map((agent) => ({
    name: nameOf(agent),
    readOutboxes: agent.valid ? agent.resume.permissions.read_outboxes : null,
    sendOutboxes: agent.valid ? (agent.resume.permissions.send_outboxes ?? null) : null,
  }));
  const { edges, unknownNames } = permissionEdges(links);
  const nextTick = context.controller.state().nextTick;
  const pace = await tickPace(context);
  const nodes: GraphNode[] = agents.map((agent) => {
    const name = nameOf(agent);
    const micros = agent.valid ? context.engine.ledger.balance(name) : null;
    return {
      name,
      folder: agent.folder,
      title: agent.valid ? agent.resume.title : agent.title,
      state: states.get(name)!,
      balance: micros === null ? null : fromMicros(micros),
      costPerAction: !credits.ok
        ? null
        : (credits.value[name]?.cost_per_action ??
          (agent.valid ? defaultCreditEntry(agent.resume).cost_per_action : null)),
      position: positions[name] ?? null,
      readsAll: agent.valid && agent.resume.permissions.read_outboxes.includes('*'),
      unknownNames: unknownNames.get(name) ?? [],
      sendsAnywhere: agent.valid && (agent.resume.permissions.send_outboxes ?? ['*']).includes('*'),
      schedule: agent.valid
        ? {
            runEveryNTicks: agent.resume.schedule.run_every_n_ticks,
            phaseOffset: agent.resume.schedule.phase_offset,
            firePoint: firePoint(agent.resume.schedule),
            firesNextTick:
              nextTick !== null &&
              agent.resume.switched_off !== true &&
              agent.resume.schedule.clock === undefined &&
              firesAt(nextTick, agent.resume.schedule),
            clock: agent.resume.schedule.clock ?? null,
            switchedOff: agent.resume.switched_off === true,
            nextDue: nextDueOf(agent, pace),
          }
        : null,
    };
  });
  const fromTick = Math.max(0, (nextTick ?? 0) - TRAFFIC_WINDOW_TICKS);
  const counts = messageTraffic(
    context.engine.timeline.db,
    nodes.map((node) => node.name),
    fromTick,
  );
  return { nodes, edges, nextTick, traffic: { fromTick, windowTicks: TRAFFIC_WINDOW_TICKS, counts } };
}
