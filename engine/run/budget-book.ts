import { readBudgets, type BudgetsFile } from '../org/budgets-file';
import type { CreditEntry } from '../org/credits-file';
import type { Resume } from '../org/resume-schema';
import type { BudgetSpendStore } from '../timeline/budget-spend';
import { BudgetGate } from './budget-gate';
import {
  budgetOwner,
  budgetStandings,
  budgetWords,
  softCapStanding,
  standingsOf,
  type SoftCapFacts,
  type Standing,
} from './budget-standing';
import type { Result } from '../api/result';
import type { Problem } from '../api/problem';
import type { KnownEventFields } from '../api/timeline-events';
import { fromMicros } from '../credits/credit-amount';
import { EngineInputError } from './engine-errors';

type ResumeRecord = Extract<KnownEventFields, { kind: 'budget_resumed' }>;

/**
 * The org's budgets for the engine: budgets.json read once a tick, and for each turn a gate with the
 * agent's and the org's budgets as they stand when it begins. An unreadable budgets.json stops the tick
 * with where it is wrong: a limit the person set is never silently dropped.
 */
export class BudgetBook {
  private budgets: BudgetsFile = {};

  constructor(
    private readonly orgPath: string,
    private readonly store: BudgetSpendStore,
    private readonly clock: () => Date,
  ) {}

  async load(): Promise<void> {
    const read = await readBudgets(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.error);
    this.budgets = read.value;
  }

  /**
   * The records that resume `agent`: one for each budget that pauses it now (its own, the org's), each
   * raising that budget's limit by one more budget for the rest of its day or month. None when nothing pauses it.
   */
  async resumeRecords(agent: string): Promise<ResumeRecord[]> {
    await this.load();
    return standingsOf(budgetStandings(this.budgets, [agent], this.store, this.clock()), agent)
      .filter((standing) => standing.paused)
      .map((standing) => ({
        kind: 'budget_resumed',
        scope: standing.scope,
        budget: standing.budget,
        period: standing.period.key,
        limit: fromMicros(standing.limitMicro + standing.budgetMicro),
        message: `You resumed ${standing.scope === 'org' ? 'the org' : agent}: ${budgetOwner(standing)} budget of ${budgetWords(standing.budget, fromMicros(standing.budgetMicro))} allows ${fromMicros(standing.budgetMicro)} more ${standing.budget.startsWith('daily') ? 'today' : 'this month'}.`,
      }));
  }

  /** Keeps the person's resumes of `agent` (the rows that lift budgets; the events only tell of them). */
  recordResumes(agent: string, records: readonly ResumeRecord[], time: string): void {
    for (const record of records)
      this.store.recordResume({
        scope: record.scope,
        agent: record.scope === 'agent' ? agent : null,
        budget: record.budget,
        period: record.period,
        time,
      });
  }

  /** Every budget as it stands now for `agents` (theirs and the org's), or where budgets.json is wrong. */
  async standings(agents: readonly string[]): Promise<Result<Standing[], Problem[]>> {
    const read = await readBudgets(this.orgPath);
    if (!read.ok) return read;
    return { ok: true, value: budgetStandings(read.value, agents, this.store, this.clock()) };
  }

  /** The gate for one turn of `agent`; undefined when no budget limits it and it has no soft cap. */
  gateFor(agent: string, costPerActionMicro: number, softCap: SoftCapFacts | null): BudgetGate | undefined {
    const standings = [
      ...standingsOf(budgetStandings(this.budgets, [agent], this.store, this.clock()), agent),
      ...(softCap ? [softCapStanding(agent, softCap, this.store)] : []),
    ];
    return standings.length > 0 ? new BudgetGate(agent, standings, costPerActionMicro) : undefined;
  }
}

/** An agent's soft cap and max_credits (credits.json first, then its resume) with its balance; null without both. */
export function softCapFacts(
  entry: CreditEntry | undefined,
  resume: Pick<Resume, 'credits'>,
  balanceMicro: number | null,
): SoftCapFacts | null {
  const softCap = entry?.soft_cap ?? resume.credits?.soft_cap;
  const maxCredits = entry?.max_credits ?? resume.credits?.max_credits;
  if (softCap === undefined || maxCredits === undefined || balanceMicro === null) return null;
  return { softCap, maxCredits, balanceMicro };
}
