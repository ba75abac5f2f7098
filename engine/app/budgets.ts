import type { z } from 'zod';
import type { BudgetStanding, ResumeBudgetInput, UnpricedUse } from '../api/budget-schemas';
import { ok, type IpcResult } from '../api/result';
import { isHumanOperator } from '../api/human-operator';
import { findModelEntry, readModelsFile } from '../models/models-file';
import { BUDGETS_FILE } from '../org/budgets-file';
import { discoverAgents } from '../org/discover';
import { pausedWords, shownStanding, standingsOf, type BudgetedAgent } from '../run/budget-standing';
import type { OrgContext } from './org-context';
import { invalidConfigFile } from './problems';

/** Each valid agent that takes turns (not the human operator), with its model key and whether models.json gives that model prices. */
async function budgetedAgents(context: OrgContext): Promise<(BudgetedAgent & { model: string })[]> {
  const [agents, models] = await Promise.all([
    discoverAgents(context.orgPath),
    readModelsFile(context.orgPath),
  ]);
  return agents.flatMap((agent) =>
    agent.valid && !isHumanOperator(agent.folder)
      ? [
          {
            name: agent.resume.name,
            model: agent.resume.model.key,
            priced: findModelEntry(models, agent.resume.model.key)?.provider_config.prices !== undefined,
          },
        ]
      : [],
  );
}

/** The org's budgets as they stand now (the org's first, then each agent's), each money budget naming the agents it cannot see. */
export async function budgetStandingsNow(context: OrgContext): Promise<IpcResult<BudgetStanding[]>> {
  const agents = await budgetedAgents(context);
  const standings = await context.engine.budgets.standings(agents.map((agent) => agent.name));
  if (!standings.ok) return invalidConfigFile(BUDGETS_FILE, standings.error);
  return ok(standings.value.map((standing) => shownStanding(standing, agents)));
}

/**
 * What agents whose model has no prices used, by agent: their spending on models is unknown, so it is
 * shown as "unpriced" with its tokens, never as 0.
 */
export async function unpricedUse(context: OrgContext): Promise<Map<string, UnpricedUse>> {
  const agents = await budgetedAgents(context);
  return new Map(
    agents
      .filter((agent) => !agent.priced)
      .map((agent) => [
        agent.name,
        { model: agent.model, ...context.engine.spending.modelTokens(agent.name, agent.model) },
      ]),
  );
}

/** Why a budget pauses each agent it pauses, in words; an unreadable budgets.json pauses none here (the run says where it is wrong). */
export async function budgetPauses(
  context: OrgContext,
  agents: readonly string[],
): Promise<Map<string, string>> {
  const standings = await context.engine.budgets.standings(agents);
  if (!standings.ok) return new Map();
  return new Map(
    agents.flatMap((agent) => {
      const paused = standingsOf(standings.value, agent).find((standing) => standing.paused);
      return paused ? [[agent, pausedWords(paused, agent)] as const] : [];
    }),
  );
}

/**
 * Resumes an agent paused over a budget: each budget pausing it allows one more budget for the rest of
 * its day or month. `resumed` is how many budgets it lifted (0 when none paused it).
 */
export async function resumeBudget(
  context: OrgContext,
  input: z.output<typeof ResumeBudgetInput>,
): Promise<IpcResult<{ agent: string; resumed: number }>> {
  return ok({ agent: input.agent, resumed: await context.engine.resumeBudget(input.agent) });
}
