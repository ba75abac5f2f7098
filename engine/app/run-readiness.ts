import type { AgentState } from '../api/agent-state-schemas';
import type { AgentReadinessNote, RunReadiness } from '../api/run-schemas';
import { ok, type IpcResult } from '../api/result';
import { isHumanOperator } from '../api/human-operator';
import { discoverAgents } from '../org/discover';
import { agentStates } from './agent-states';
import { trustHeadline } from '../trust/trust-words';
import { nameOf } from './agent-lookup';
import type { OrgContext } from './org-context';

/**
 * Before a run: whether the org is trusted as it is now (nothing runs until it is; the check itself
 * starts nothing), which agents will not run their turns and why — those whose state (the one state
 * function, agent-states.ts) is "will not run", out of credits or an unusable resume — and which will run
 * with a tool that cannot work (it needs network access the org has off). The same check the run bar
 * shows beside Start and `lemming status` can print.
 */
export async function runReadiness(context: OrgContext): Promise<IpcResult<RunReadiness>> {
  const [agents, trust] = await Promise.all([discoverAgents(context.orgPath), context.engine.trust()]);
  const states = await agentStates(context, agents);
  const blocked: RunReadiness['blocked'] = [];
  const warnings: RunReadiness['warnings'] = [];
  for (const agent of agents) {
    const name = nameOf(agent);
    const state = states.get(name);
    const line = state && blockedLine(state);
    if (state && line) {
      blocked.push({ agent: name, state, ...line });
      continue;
    }
    if (!agent.valid || isHumanOperator(agent.folder)) continue;
    const needsNetwork = (await context.engine.explainTools(name)).filter(
      (tool) =>
        tool.layers.find((layer) => layer.layer === 'allowlist')?.passed &&
        tool.layers.some(
          (layer) => layer.layer === 'kind' && !layer.passed && /network access is off/.test(layer.reason),
        ),
    );
    if (needsNetwork.length > 0)
      warnings.push({
        agent: name,
        reason: `${needsNetwork.map((tool) => tool.title).join(', ')} ${needsNetwork.length > 1 ? 'need' : 'needs'} network access, which is off for this org`,
        detail: null,
        fixIn: null,
      });
  }
  const notTrusted =
    trust.state === 'untrusted' || trust.state === 'changed'
      ? { state: trust.state, reason: trustHeadline(trust) }
      : null;
  return ok({ notTrusted, blocked, warnings });
}

/** The run bar's line for an agent that will not run, in the state's own words; null for one that will. */
function blockedLine(state: AgentState): Omit<AgentReadinessNote, 'agent'> | null {
  if (state.kind === 'will_not_run') {
    const [first, ...more] = state.reasons;
    if (!first) return null;
    return {
      reason: [first, ...more].map((reason) => reason.reason).join('; '),
      detail: [first, ...more].flatMap((reason) => reason.detail ?? []).join('; ') || null,
      fixIn: first.fixIn,
    };
  }
  if (state.kind === 'out_of_credits')
    return {
      reason: 'it has no credits left (top it up in its page or in Credits)',
      detail: null,
      fixIn: null,
    };
  if (state.kind === 'over_budget')
    return { reason: 'it is paused over a budget (resume it in Credits)', detail: state.words, fixIn: null };
  if (state.kind === 'invalid_resume')
    return { reason: state.words.replace(/^Its resume/, 'its resume'), detail: null, fixIn: null };
  return null;
}
