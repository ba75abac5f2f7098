import type { z } from 'zod';
import type { CreditBalance, CreditHistory, CreditHistoryInput } from '../api/credit-schemas';
import { ok, type IpcResult } from '../api/result';
import { fromMicros } from '../credits/credit-amount';
import { CREDITS_FILE, readCredits } from '../org/credits-file';
import { discoverAgents } from '../org/discover';
import type { OrgContext } from './org-context';
import { invalidConfigFile } from './problems';
import { budgetStandingsNow, unpricedUse } from './budgets';
import { softCapFacts } from '../run/budget-book';
import { shownStanding, softCapStanding } from '../run/budget-standing';

const DEFAULT_HISTORY_PAGE = 200;

/** Each valid agent's balance from the ledger, with its caps from credits.json or its resume, its budgets and soft cap as they stand, and what an unpriced model used. */
export async function creditBalances(context: OrgContext): Promise<IpcResult<CreditBalance[]>> {
  const credits = await readCredits(context.orgPath);
  if (!credits.ok) return invalidConfigFile(CREDITS_FILE, credits.error);
  const balances = context.engine.ledger.balances();
  const standings = await budgetStandingsNow(context);
  if (!standings.ok) return standings;
  const unpriced = await unpricedUse(context);
  const agents = (await discoverAgents(context.orgPath)).flatMap((agent) =>
    agent.valid ? [agent.resume] : [],
  );
  return ok(
    agents.map((resume) => {
      const micros = balances.get(resume.name);
      const entry = credits.value[resume.name];
      const balance = micros === undefined ? null : fromMicros(micros);
      const budgets = standings.value.filter(
        (standing) => standing.agent === resume.name || standing.scope === 'org',
      );
      const paused = budgets.find((standing) => standing.paused);
      const softCap = softCapFacts(entry, resume, micros ?? null);
      return {
        agent: resume.name,
        balance,
        maxCredits: entry?.max_credits ?? resume.credits?.max_credits ?? null,
        softCap: entry?.soft_cap ?? resume.credits?.soft_cap ?? null,
        outOfCredits: balance !== null && balance <= 0,
        unpriced: unpriced.get(resume.name) ?? null,
        budgets: [
          ...budgets.filter((standing) => standing.scope === 'agent'),
          ...(softCap
            ? [shownStanding(softCapStanding(resume.name, softCap, context.engine.spending), [])]
            : []),
          ...budgets.filter((standing) => standing.scope === 'org'),
        ],
        overBudget: paused ? paused.pausedWords : null,
      };
    }),
  );
}

/** One page of the agent's ledger, newest first, keyset-paged by entry id. */
export function creditHistory(
  context: OrgContext,
  input: z.output<typeof CreditHistoryInput>,
): z.output<typeof CreditHistory> {
  const limit = input.limit ?? DEFAULT_HISTORY_PAGE;
  const entries = context.engine.ledger.history(input.agent, {
    ...(input.before ? { before: input.before } : {}),
    limit,
  });
  return {
    entries: entries.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      amount: fromMicros(entry.amountMicro),
      balance: fromMicros(entry.balanceMicro),
      reason: entry.reason,
      tick: entry.tick,
      turn: entry.turn,
      time: entry.time,
    })),
    nextCursor: entries.length === limit ? (entries.at(-1)?.id ?? null) : null,
  };
}
