import type { Channel, ChannelInput, EventName, EventPayload } from '../../../engine/api';

/**
 * The channels that read: their answers are cached by channel and input, shared while in flight and
 * made stale by the maps below. Every other channel writes (or asks the person, or the network), and
 * is never cached. A new channel is a compile error in `staleAfterWrite` until it is put on one side.
 */
export const READS = [
  'app.info',
  'org.agents',
  'org.summary',
  'org.status',
  'org.graph',
  'agent.get',
  'agent.schedulePreview',
  'agent.fileAccessPreview',
  'memory.get',
  'tools.catalog',
  'tools.explain',
  'approvals.pending',
  'approvals.settings',
  'connectors.list',
  'trust.state',
  'bundle.origin',
  'bundle.preview',
  'secrets.list',
  'timeline.page',
  'timeline.get',
  'timeline.attachment',
  'timeline.facets',
  'inspector.turn',
  'inspector.tick',
  'inspector.agentTurns',
  'inspector.rehearsal',
  'inbox.page',
  'inbox.unread',
  'run.state',
  'run.readiness',
  'credits.balances',
  'credits.history',
  'departments.list',
  'departments.spend',
  'messages.inbox',
  'settings.get',
  'models.list',
  'models.serverModels',
  'desktop.settings',
  'recentOrgs.list',
  'templates.gallery',
  'updates.status',
] as const satisfies readonly Channel[];

export type ReadChannel = (typeof READS)[number];
export type WriteChannel = Exclude<Channel, ReadChannel>;

/** One read made stale: every answer of `channel`, or only those whose input `matches` the push. */
export type StaleTarget<P> =
  ReadChannel | { channel: ReadChannel; matches(input: unknown, payload: P): boolean };

/** An answer about one agent (`{ agent }`) is stale when the push names that agent or names none (the list changed). */
const forNamedAgents = (channel: ReadChannel): StaleTarget<{ names: string[] }> => ({
  channel,
  matches: (input, { names }) => {
    const agent = (input as { agent?: unknown }).agent;
    return names.length === 0 || typeof agent !== 'string' || names.includes(agent);
  },
});

/** What the timeline holds: a new event may change every one of these. */
const TIMELINE_READS = [
  'timeline.page',
  'timeline.facets',
  'inspector.turn',
  'inspector.tick',
  'inspector.agentTurns',
  'inbox.page',
  'inbox.unread',
  'messages.inbox',
  'memory.get',
  'credits.history',
  'credits.balances',
  'departments.spend',
  'org.status',
] as const satisfies readonly ReadChannel[];

/** What an agent's files, tools, models and keys decide. */
const AGENT_READS = [
  'org.agents',
  'org.summary',
  'org.status',
  'org.graph',
  'tools.catalog',
  'connectors.list',
  'approvals.settings',
  'run.readiness',
  'credits.balances',
  'trust.state',
  'secrets.list',
  'models.list',
] as const satisfies readonly ReadChannel[];

/**
 * THE map from each push main sends (engine/api/events.ts) to the reads it makes stale; exhaustive
 * over the events, so a new push does not compile until it says what it changes.
 */
export const staleAfterEvent: { [E in EventName]: readonly StaleTarget<EventPayload<E>>[] } = {
  // A bundle's preview lists the org's files, which every tick and every change of an agent can add to.
  'timeline.appended': [...TIMELINE_READS, 'bundle.preview'],
  // An agent whose call waits for the person "needs you" on the list as on the graph.
  'approvals.changed': ['approvals.pending', 'org.graph', 'org.agents'],
  // The readiness looks a few ticks ahead, so it is asked again when the run settles on a new tick,
  // not on every phase it passes through.
  'run.state': [
    'org.graph',
    'org.summary',
    { channel: 'run.readiness', matches: (_input, { phase }) => phase === 'idle' || phase === 'paused' },
  ],
  'agents.changed': [
    ...AGENT_READS,
    'bundle.preview',
    forNamedAgents('agent.get'),
    forNamedAgents('tools.explain'),
    forNamedAgents('memory.get'),
  ],
  'org.changed': READS,
  'updates.changed': [],
  'app.navigate': [],
  'app.newOrg': [],
  'turn.progress': [],
  // A long job's progress is heard by the view that started it; what the job changed has its own pushes.
  'job.progress': [],
  'mcp.statuses': ['connectors.list'],
};

/** Pushes that travel whole and are the answer of a read (the same shape): the cache takes them as that answer. */
export const answeredByEvent = {
  'run.state': 'run.state',
  'updates.changed': 'updates.status',
} as const satisfies { [E in EventName]?: ReadChannel };

/**
 * What each write makes stale at once when it succeeds (main's pushes follow, and may make more
 * stale); exhaustive over the channels that are not reads.
 */
export const staleAfterWrite: Record<WriteChannel, readonly ReadChannel[]> = {
  'org.pickFolder': [],
  'org.open': READS,
  'org.create': READS,
  'org.close': READS,
  'org.savePositions': ['org.graph'],
  'org.createAgent': AGENT_READS,
  'org.removeAgent': AGENT_READS,
  'org.restoreAgent': AGENT_READS,
  'agent.update': [...AGENT_READS, 'agent.get', 'tools.explain', 'agent.fileAccessPreview'],
  'memory.edit': ['memory.get', ...TIMELINE_READS],
  'tools.applyFix': [...AGENT_READS, 'agent.get', 'tools.explain'],
  'tools.setEnabled': [...AGENT_READS, 'agent.get', 'tools.explain'],
  'approvals.answer': ['approvals.pending', 'org.graph', 'org.agents'],
  // A choice about a changed MCP tool accepts the change, which its server's card shows.
  'approvals.setMode': ['approvals.settings', 'tools.explain', 'connectors.list'],
  'approvals.setTimeout': ['approvals.settings'],
  'connectors.setConfig': [...AGENT_READS, 'tools.explain'],
  'connectors.saveRestApi': [...AGENT_READS, 'tools.explain'],
  'connectors.removeRestApi': [...AGENT_READS, 'tools.explain'],
  'connectors.importMcp': [...AGENT_READS, 'tools.explain'],
  'connectors.saveMcpServer': [...AGENT_READS, 'tools.explain'],
  'connectors.pasteMcpServers': [...AGENT_READS, 'tools.explain'],
  'connectors.removeMcpServer': [...AGENT_READS, 'tools.explain'],
  'connectors.signIn': [...AGENT_READS, 'tools.explain'],
  'connectors.trustMcpHints': ['connectors.list', 'tools.explain', 'approvals.settings'],
  // The server starts again with or without the capability, and may offer other tools then.
  'connectors.allowMcpSampling': [...AGENT_READS, 'tools.explain'],
  'trust.accept': ['trust.state', 'run.readiness', 'org.graph'],
  'trust.revoke': ['trust.state', 'run.readiness', 'org.graph'],
  'trust.grant': ['trust.state', 'run.readiness', 'org.graph', 'secrets.list'],
  'secrets.set': [...AGENT_READS, 'tools.explain'],
  'secrets.delete': [...AGENT_READS, 'tools.explain'],
  'timeline.export': [],
  'bundle.export': [],
  'bundle.import': [],
  'jobs.cancel': [],
  'timeline.import': READS,
  'inbox.markRead': ['inbox.page', 'inbox.unread'],
  'inbox.reply': ['inbox.page', 'inbox.unread', ...TIMELINE_READS],
  // A run control answers with the new run state (the controls put it in the cache); its pushes follow.
  'run.start': [],
  'run.pause': [],
  'run.resume': [],
  'run.step': [],
  'run.stop': [],
  'departments.save': ['departments.list', 'departments.spend', 'org.graph'],
  // Reads the newer copy's folder, which can change between two looks: never cached.
  'org.updatePlan': [],
  'org.updateApply': [...AGENT_READS, 'departments.list', 'agent.get', 'tools.explain'],
  // A rehearsal adds its record to the timeline and nothing else.
  'agent.rehearse': ['timeline.page', 'timeline.facets'],
  'credits.topUp': ['credits.balances', 'credits.history', 'org.graph', 'run.readiness', 'org.status'],
  'credits.resume': [
    'credits.balances',
    'org.graph',
    'org.agents',
    'agent.get',
    'run.readiness',
    'org.status',
    ...TIMELINE_READS,
  ],
  'messages.send': TIMELINE_READS,
  'settings.update': ['settings.get', 'run.readiness'],
  'settings.testConnection': [],
  'models.update': [...AGENT_READS, 'tools.explain'],
  'models.probe': [],
  'models.add': [...AGENT_READS, 'tools.explain'],
  'models.setKey': [...AGENT_READS, 'tools.explain'],
  'models.detectLocal': [],
  'firstRun.openDemo': READS,
  'templates.create': READS,
  'desktop.updateSettings': ['desktop.settings'],
  'recentOrgs.pin': ['recentOrgs.list'],
  'recentOrgs.forget': ['recentOrgs.list'],
  'updates.setEnabled': ['updates.status'],
  'updates.restartNow': [],
};

/**
 * Reads asked again later than the others after a push: many answers each (one per agent), and a run
 * pings many times a second.
 */
export const slowRefetchMs: Partial<Record<ReadChannel, number>> = {
  'credits.balances': 600,
  'credits.history': 600,
};

/**
 * Reads of what the org is set up to do, which a tick's turns do not change, and the tallies a tick adds
 * to (balances, the unread count): made stale while a tick runs, they are asked again once, when it ends,
 * not after every turn. Not the agents' list: it carries each agent's state, which a turn changes
 * (running, needs you, failing).
 */
export const SETTLED_AFTER_TICK: ReadonlySet<ReadChannel> = new Set([
  'inbox.unread',
  'run.readiness',
  'trust.state',
  'approvals.settings',
  'tools.catalog',
  'connectors.list',
  'secrets.list',
  'models.list',
  'org.summary',
  'org.status',
  'credits.balances',
  'credits.history',
]);

/** The key of one read in the cache: its channel and its input, the input's fields in a fixed order. */
export function queryKey<C extends ReadChannel>(channel: C, input: ChannelInput<C>): string {
  return `${channel} ${stableJson(input)}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
