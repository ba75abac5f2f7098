import { access, constants, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isWithin } from '../sandbox/sandbox-layout';
import type { AgentState, WillNotRunReason } from '../api/agent-state-schemas';
import { isPaused } from '../api/run-schemas';
import { isHumanOperator } from '../api/human-operator';
import { fromMicros } from '../credits/credit-amount';
import type { DiscoveredAgent } from '../org/discover';
import { nextFiringTicks } from '../org/schedule';
import { nameOf } from './agent-lookup';
import { budgetPauses } from './budgets';
import { agentStateOf, failureCause, type AgentFacts } from './agent-state';
import type { OrgContext } from './org-context';

/** How far ahead an agent's next turn may be and still count as part of the coming run. */
const LOOKAHEAD_TICKS = 1000;

/**
 * The state of each agent, by name, from the facts as they are now: the engine's one answer every
 * channel that shows agents carries (org.graph, org.agents, agent.get, run.readiness).
 */
export async function agentStates(
  context: OrgContext,
  agents: readonly DiscoveredAgent[],
): Promise<Map<string, AgentState>> {
  const nextTick = await context.engine.currentTick();
  const keys = new Set(agents.flatMap((agent) => (agent.valid ? [agent.resume.model.key] : [])));
  const problems = await context.engine.modelProblems([...keys]);
  const modelProblem = (key: string): WillNotRunReason | null => {
    const problem = problems.get(key);
    return problem
      ? { reason: problem.plain, short: problem.short, detail: problem.message, fixIn: 'settings' }
      : null;
  };
  const paused = isPaused(context.controller.state().phase);
  const overBudget = await budgetPauses(context, agents.map(nameOf));
  const states = await Promise.all(
    agents.map(async (agent) => {
      const name = nameOf(agent);
      return [name, await stateOf(context, agent, { nextTick, paused, modelProblem, overBudget })] as const;
    }),
  );
  return new Map(states);
}

export async function agentState(context: OrgContext, agent: DiscoveredAgent): Promise<AgentState> {
  const states = await agentStates(context, [agent]);
  return states.get(nameOf(agent))!;
}

async function stateOf(
  context: OrgContext,
  agent: DiscoveredAgent,
  now: {
    nextTick: number;
    paused: boolean;
    modelProblem(key: string): WillNotRunReason | null;
    overBudget: ReadonlyMap<string, string>;
  },
): Promise<AgentState> {
  const name = nameOf(agent);
  if (!agent.valid) {
    const problem = agent.problems[0];
    return agentStateOf({
      ...NOTHING,
      invalidResume: {
        file: problem?.file ?? agent.resumeFile,
        line: problem?.line ?? null,
        message: problem?.message ?? 'it is not valid',
      },
    });
  }
  const { resume } = agent;
  const takesTurns = !isHumanOperator(agent.folder);
  const next = nextFiringTicks(resume.schedule, now.nextTick, 1)[0];
  const runsSoon = takesTurns && next !== undefined && next - now.nextTick <= LOOKAHEAD_TICKS;
  const modelProblem = takesTurns ? now.modelProblem(resume.model.key) : null;
  const micros = context.engine.ledger.balance(name);
  const lastTurn = context.turnStatus.latest(name);
  const lastError = lastTurn?.status === 'failed' ? context.turnStatus.errorOf(name, lastTurn.tick) : null;
  const waiting = context.waitingRequests(name)[0];
  return agentStateOf({
    invalidResume: null,
    switchedOff: resume.switched_off === true,
    waiting: waiting
      ? { id: waiting.id, tool: waiting.tool, form: waiting.form !== undefined, askedAt: waiting.asked_at }
      : null,
    running: context.isRunning(name),
    runPaused: now.paused,
    overBudget: takesTurns ? (now.overBudget.get(name) ?? null) : null,
    balance: micros === null ? (resume.credits?.max_credits ?? null) : fromMicros(micros),
    willNotRun: runsSoon && modelProblem ? [modelProblem] : [],
    lastTurn,
    lastError,
    lastFailureFixed:
      lastTurn?.status === 'failed' && (await causeFixed(context, lastError, modelProblem === null)),
  });
}

const NOTHING: Omit<AgentFacts, 'invalidResume'> = {
  switchedOff: false,
  waiting: null,
  running: false,
  runPaused: false,
  overBudget: null,
  balance: null,
  willNotRun: [],
  lastTurn: null,
  lastError: null,
  lastFailureFixed: false,
};

async function causeFixed(
  context: OrgContext,
  error: Parameters<typeof failureCause>[0],
  modelSetUp: boolean,
): Promise<boolean> {
  const cause = failureCause(error);
  if (cause.kind === 'model_setup') return modelSetUp;
  if (cause.kind !== 'unwritable_folder') return false;
  // The folder is named by the timeline, which came with the org: only one inside the org is looked at.
  const folder = resolve(context.orgPath, cause.folder);
  if (!isWithin(resolve(context.orgPath), folder)) return false;
  return stat(folder)
    .then((found) => found.isDirectory() && access(folder, constants.W_OK).then(() => true))
    .catch(() => false);
}
