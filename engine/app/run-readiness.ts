import type { RunReadiness } from '../api/run-schemas';
import { ok, type IpcResult } from '../api/result';
import { fromMicros } from '../credits/credit-amount';
import { discoverAgents } from '../org/discover';
import { nextFiringTicks } from '../org/schedule';
import { trustHeadline } from '../trust/trust-words';
import { nameOf } from './agent-lookup';
import type { OrgContext } from './org-context';

/** How far ahead an agent's next turn may be and still count as part of the coming run. */
const LOOKAHEAD_TICKS = 1000;

/**
 * Before a run: whether the org is trusted as it is now (nothing runs until it is; the check itself
 * starts nothing), which agents will not run their turns and why (an unusable resume, a model that is not
 * set up or whose API key is not set, no credits), and which will run with a tool that cannot work
 * (it needs network access the org has off). Agents whose next turn is far away (the human operator)
 * are left out. The same check the run bar shows beside Start and `lemming status` can print.
 */
export async function runReadiness(context: OrgContext): Promise<IpcResult<RunReadiness>> {
  const [agents, nextTick, trust] = await Promise.all([
    discoverAgents(context.orgPath),
    context.engine.currentTick(),
    context.engine.trust(),
  ]);
  const blocked: RunReadiness['blocked'] = [];
  const warnings: RunReadiness['warnings'] = [];
  for (const agent of agents) {
    const name = nameOf(agent);
    if (!agent.valid) {
      blocked.push({
        agent: name,
        reason: `its resume cannot be used: ${agent.problems[0]?.message ?? 'it is not valid'}`,
        detail: null,
        fixIn: null,
      });
      continue;
    }
    const { resume } = agent;
    const next = nextFiringTicks(resume.schedule, nextTick, 1)[0];
    if (next === undefined || next - nextTick > LOOKAHEAD_TICKS) continue;
    const modelProblem = await context.engine.modelProblem(resume.model.key);
    if (modelProblem) {
      blocked.push({
        agent: name,
        reason: modelProblem.plain,
        detail: modelProblem.message,
        fixIn: 'settings',
      });
      continue;
    }
    const micros = context.engine.ledger.balance(name);
    const balance = micros === null ? (resume.credits?.max_credits ?? null) : fromMicros(micros);
    if (balance !== null && balance <= 0) {
      blocked.push({
        agent: name,
        reason: 'it has no credits left (top it up in its page or in Credits)',
        detail: null,
        fixIn: null,
      });
      continue;
    }
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
