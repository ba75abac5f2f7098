import type { AgentStateKind } from '../../engine/api/agent-state-schemas';
import type { RunState } from '../../engine/api/run-schemas';
import type { CreditBalance } from '../../engine/api/credit-schemas';
import type { McpServerStatuses } from '../../engine/api/tool-schemas';
import type { AppPlace, DesktopSettings, NoticeKind } from '../../engine/api/desktop-schemas';

/** What of the open org may need the person, as main last read it. */
export interface Attention {
  org: string | null;
  approvals: { id: string; agent: string; tool: string }[];
  agents: { name: string; state: AgentStateKind; stateReason: string }[];
  run: Pick<RunState, 'phase' | 'ended'> | null;
  /** MCP servers waiting for the person to sign in, from the first time one asked until it is signed in. */
  signIn: string[];
  /** Budgets at 80 % or more of their limit (and not pausing yet): each by its day or month, in words. */
  budgetWarnings: BudgetWarning[];
}

/** A budget that warned: `key` names it and its day or month, so the next period's warning is news again. */
export interface BudgetWarning {
  key: string;
  agent: string | null;
  words: string;
}

export const NOTHING_NEEDS_ATTENTION: Attention = {
  org: null,
  approvals: [],
  agents: [],
  run: null,
  signIn: [],
  budgetWarnings: [],
};

/** One OS notification: plain words, and the place in the app a click opens. */
export interface Notice {
  kind: NoticeKind;
  title: string;
  body: string;
  place: AppPlace;
  /** The one approval it asks about, which the notification may answer where the OS offers buttons. */
  approvalId?: string;
}

/**
 * The news between two readings of the same org: only what became true since (a new approval, an agent
 * that started failing, a run that ended), so a state that lasts is told once, not at every tick.
 * Another org, or none, is a fresh start with nothing to tell.
 */
export function noticesBetween(before: Attention, after: Attention): Notice[] {
  if (after.org === null || before.org !== after.org) return [];
  return [
    ...approvalNotices(before, after),
    ...agentNotices(before, after),
    ...runNotices(before, after),
    ...signInNotices(before, after),
    ...budgetNotices(before, after),
  ];
}

/**
 * The servers still waiting for the person to sign in, given what the servers do now: one joins when it
 * asks for a sign-in and leaves only when it runs (signed in), is turned off or removed, so a server that
 * asks again at every start is told of once.
 */
export function waitingForSignIn(before: readonly string[], servers: McpServerStatuses['servers']): string[] {
  const status = new Map(servers.map((server) => [server.name, server.status]));
  const kept = before.filter((name) => {
    const now = status.get(name);
    return now !== undefined && now !== 'running' && now !== 'disabled';
  });
  const asking = servers.filter((server) => server.status === 'needs_sign_in' && !kept.includes(server.name));
  return [...kept, ...asking.map((server) => server.name)];
}

function signInNotices(before: Attention, after: Attention): Notice[] {
  return after.signIn
    .filter((server) => !before.signIn.includes(server))
    .map((server) => ({
      kind: 'sign_in',
      title: `Your org needs you to sign in to ${server}`,
      body: `Agents cannot use the tools of ${server} until you sign in. Open its card in the Tool Store to sign in.`,
      place: { view: 'tools', server },
    }));
}

function approvalNotices(before: Attention, after: Attention): Notice[] {
  const known = new Set(before.approvals.map((request) => request.id));
  const added = after.approvals.filter((request) => !known.has(request.id));
  const [first] = added;
  if (!first) return [];
  const body =
    added.length === 1
      ? `${first.agent} asks before it uses ${first.tool}.`
      : `${added.length} tool calls wait for your yes or no.`;
  const notice: Notice = { kind: 'approval', title: 'Waiting for your answer', body, place: { view: 'org' } };
  return [added.length === 1 ? { ...notice, approvalId: first.id } : notice];
}

function agentNotices(before: Attention, after: Attention): Notice[] {
  const stateBefore = new Map(before.agents.map((agent) => [agent.name, agent.state]));
  const notices: Notice[] = [];
  for (const agent of after.agents) {
    const was = stateBefore.get(agent.name);
    if (was === undefined || was === agent.state) continue;
    const place: AppPlace = { view: 'agent', agent: agent.name };
    if (agent.state === 'failing')
      notices.push({ kind: 'failing', title: `${agent.name} is failing`, body: agent.stateReason, place });
    if (agent.state === 'over_budget')
      notices.push({
        kind: 'credits',
        title: `${agent.name} is paused: over budget`,
        body: agent.stateReason,
        place,
      });
    if (agent.state === 'out_of_credits')
      notices.push({
        kind: 'credits',
        title: `${agent.name} is out of credits`,
        body: 'It takes no more turns until you top up its credits.',
        place,
      });
  }
  return notices;
}

/** The budgets of the credits panel that warned and do not pause yet; an org budget shown on every agent counts once. */
export function budgetWarningsOf(balances: readonly CreditBalance[]): BudgetWarning[] {
  const warnings = new Map<string, BudgetWarning>();
  for (const standing of balances.flatMap((balance) => balance.budgets))
    if (standing.warned && !standing.paused) {
      const key = [standing.scope, standing.agent ?? '', standing.budget, standing.period].join(':');
      warnings.set(key, {
        key,
        agent: standing.agent,
        words:
          standing.budget === 'soft_cap'
            ? `It reached its soft cap: ${standing.spent} of ${standing.limit} credits spent since it was last given credits.`
            : `${standing.spent} of ${standing.scope === 'org' ? "the org's" : 'its'} budget of ${standing.words} is spent.`,
      });
    }
  return [...warnings.values()];
}

function budgetNotices(before: Attention, after: Attention): Notice[] {
  const known = new Set(before.budgetWarnings.map((warning) => warning.key));
  return after.budgetWarnings
    .filter((warning) => !known.has(warning.key))
    .map((warning) => ({
      kind: 'credits',
      title: warning.agent
        ? `${warning.agent} has spent most of its budget`
        : 'The org has spent most of its budget',
      body: warning.words,
      place: warning.agent ? { view: 'agent', agent: warning.agent } : { view: 'org' },
    }));
}

function runNotices(before: Attention, after: Attention): Notice[] {
  const ended = after.run?.ended;
  if (!ended || after.run?.phase !== 'idle') return [];
  const endedBefore = before.run?.ended;
  if (endedBefore && endedBefore.reason === ended.reason && endedBefore.atTick === ended.atTick) return [];
  if (before.run === null || before.run.phase === 'idle') return [];
  const title = ended.reason === 'error' ? 'The run stopped because of an error' : 'The run ended';
  return [{ kind: 'run_ended', title, body: ended.message, place: { view: 'org' } }];
}

/** The notices the person asked for: their kind switched on, and the window not in front of them. */
export function noticesToShow(
  notices: Notice[],
  settings: DesktopSettings,
  windowFocused: boolean,
): Notice[] {
  if (windowFocused) return [];
  return notices.filter((notice) => settings.notify[notice.kind]);
}

/** The count on the dock, taskbar or launcher: what waits for the person (an answer, a sign-in). */
export function badgeCount(attention: Attention): number {
  return attention.approvals.length + attention.signIn.length;
}
