import { fromMicros } from '../credits/credit-amount';
import type { KnownEventFields } from '../api/timeline-events';
import { budgetOwner, budgetWords, pausedWords, type Standing } from './budget-standing';

/** What a budget warns at: 80 % of its limit (a soft cap, at all of it). */
export const WARN_AT = 0.8;

/** What a turn has spent so far, not yet in the ledger: all its charges, and those of its model calls. */
export interface TurnSpending {
  creditsMicro: number;
  moneyMicro: number;
}

/**
 * One turn's budgets (the agent's and the org's, as they stood when the turn began), asked before each
 * model call. A call whose worst case would take spending over a limit is not made: the budget pauses
 * its agents (`budget_paused`); spending at 80 % of a limit is told once (`budget_warning`).
 */
export class BudgetGate {
  constructor(
    private readonly agent: string,
    private readonly standings: Standing[],
    /** The turn's own charge, made when it completes: a credits budget must leave room for it. */
    private readonly costPerActionMicro: number,
  ) {}

  /**
   * Null when the call may be made; else why not, in words. `worstCaseMicro` is the most the call can cost
   * (engine/run/model-cost.ts); `record` writes a budget record with the turn.
   */
  beforeModelCall(
    worstCaseMicro: number,
    spent: TurnSpending,
    record: (fields: KnownEventFields) => void,
  ): string | null {
    const paused = this.standings.find((standing) => standing.paused);
    if (paused) return this.pausedWords(paused);
    for (const standing of this.standings) {
      const spentMicro =
        standing.spentMicro + (standing.measure === 'money' ? spent.moneyMicro : spent.creditsMicro);
      const neededMicro = worstCaseMicro + (standing.measure === 'credits' ? this.costPerActionMicro : 0);
      const fields = {
        scope: standing.scope,
        budget: standing.budget,
        period: standing.period.key,
        limit: fromMicros(standing.limitMicro),
        spent: fromMicros(spentMicro),
      };
      if (standing.budget !== 'soft_cap' && spentMicro + neededMicro > standing.limitMicro) {
        standing.paused = true;
        const message = `${this.pausedWords(standing)} The next model call could cost up to ${fromMicros(neededMicro)} and ${fromMicros(spentMicro)} is spent, so it was not made.`;
        record({ kind: 'budget_paused', ...fields, needed: fromMicros(neededMicro), message });
        return message;
      }
      const warnAt = standing.budget === 'soft_cap' ? standing.limitMicro : WARN_AT * standing.limitMicro;
      if (!standing.warned && spentMicro >= warnAt) {
        standing.warned = true;
        record({
          kind: 'budget_warning',
          ...fields,
          message:
            standing.budget === 'soft_cap'
              ? `${this.agent} reached its soft cap: ${fromMicros(spentMicro)} credits spent since it was last given credits (soft cap ${fromMicros(standing.limitMicro)}).`
              : `${fromMicros(spentMicro)} of ${budgetOwner(standing)} budget of ${this.limitWords(standing)} is spent (${Math.floor((100 * spentMicro) / standing.limitMicro)} %).`,
        });
      }
    }
    return null;
  }

  private limitWords(standing: Standing): string {
    return budgetWords(standing.budget, fromMicros(standing.limitMicro));
  }

  private pausedWords(standing: Standing): string {
    return pausedWords(standing, this.agent);
  }
}
