import type { BudgetName, BudgetScope, BudgetStanding } from '../api/budget-schemas';
import { knownEvent } from '../api/timeline-events';
import { fromMicros, toMicros } from '../credits/credit-amount';
import { BUDGET_LIMIT_KEYS, type BudgetLimitKey, type BudgetsFile } from '../org/budgets-file';
import type { BudgetSpendStore, SpendMeasure } from '../timeline/budget-spend';

/** A day or a month in the computer's time zone: its key ("2026-11-28", "2026-11") and when it began (ISO 8601). */
export interface BudgetPeriod {
  key: string;
  start: string;
}

const two = (n: number) => String(n).padStart(2, '0');

export function dayOf(now: Date): BudgetPeriod {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return {
    key: `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`,
    start: start.toISOString(),
  };
}

export function monthOf(now: Date): BudgetPeriod {
  const start = new Date(now.getFullYear(), now.getMonth(), 1);
  return { key: `${now.getFullYear()}-${two(now.getMonth() + 1)}`, start: start.toISOString() };
}

/** One budget as it stands, in µcredits: what the gate checks a call against. */
export interface Standing {
  scope: BudgetScope;
  agent: string | null;
  budget: BudgetName;
  period: BudgetPeriod;
  measure: SpendMeasure;
  /** The budget as budgets.json gives it. */
  budgetMicro: number;
  /** The budget plus one budget for each resume in this period. */
  limitMicro: number;
  spentMicro: number;
  warned: boolean;
  paused: boolean;
}

/** An agent as budgets see it: its name and whether its model has prices (money budgets cannot see it otherwise). */
export interface BudgetedAgent {
  name: string;
  priced: boolean;
}

function measureOf(budget: BudgetName): SpendMeasure {
  return budget.endsWith('_money') ? 'money' : 'credits';
}

/**
 * Every budget of budgets.json as it stands at `now`: spending in its day or month from the ledger, and
 * from the budget records of the period whether it warned, paused, and how often the person resumed it.
 */
export function budgetStandings(
  budgets: BudgetsFile,
  agents: readonly string[],
  store: BudgetSpendStore,
  now: Date,
): Standing[] {
  const day = dayOf(now);
  const month = monthOf(now);
  const defined: { scope: BudgetScope; agent: string | null; budget: BudgetLimitKey; amount: number }[] = [];
  for (const budget of BUDGET_LIMIT_KEYS) {
    const orgAmount = budgets.org?.[budget];
    if (orgAmount !== undefined) defined.push({ scope: 'org', agent: null, budget, amount: orgAmount });
    for (const agent of agents) {
      const amount = budgets.agents?.[agent]?.[budget];
      if (amount !== undefined) defined.push({ scope: 'agent', agent, budget, amount });
    }
  }
  if (defined.length === 0) return [];
  const records = store.budgetRecordsSince(month.start).flatMap((row) => {
    const event = knownEvent(JSON.parse(row.json));
    return event && (event.kind === 'budget_warning' || event.kind === 'budget_paused') ? [event] : [];
  });
  const resumes = store.resumesOf(day.key, month.key);
  return defined.map(({ scope, agent, budget, amount }) => {
    const period = budget.startsWith('daily') ? day : month;
    const measure = measureOf(budget);
    const budgetMicro = toMicros(amount);
    const ours = (record: { scope: string; agent?: string | null; budget: string; period: string }) =>
      record.scope === scope &&
      record.budget === budget &&
      record.period === period.key &&
      (scope === 'org' || record.agent === agent);
    // Each resume raises the limit by one budget; a warning or pause counts for the limit it was made at.
    const limitMicro = budgetMicro * (1 + resumes.filter(ours).length);
    const atThisLimit = records.filter((record) => ours(record) && toMicros(record.limit) === limitMicro);
    const warned = atThisLimit.some((record) => record.kind === 'budget_warning');
    const paused = atThisLimit.some((record) => record.kind === 'budget_paused');
    return {
      scope,
      agent,
      budget,
      period,
      measure,
      budgetMicro,
      limitMicro,
      spentMicro: store.spentSince(agent, period.start, measure),
      warned,
      paused,
    };
  });
}

/** An agent's credits as credits.json (or its resume) gives them, and its balance now. */
export interface SoftCapFacts {
  maxCredits: number;
  softCap: number;
  balanceMicro: number;
}

/**
 * credits.json's soft_cap as a warning (LeMMing keeps it only as a note): once the agent has spent
 * soft_cap of its max_credits (its balance is at max_credits − soft_cap or below), it is told once,
 * and again only after it is given credits. It never pauses.
 */
export function softCapStanding(agent: string, facts: SoftCapFacts, store: BudgetSpendStore): Standing {
  const given = store.lastGivenCredits(agent) ?? '';
  const warned = store
    .budgetRecordsSince(given)
    .some((row) => row.kind === 'budget_warning' && row.agent === agent && softCapRecord(row.json));
  return {
    scope: 'agent',
    agent,
    budget: 'soft_cap',
    period: { key: given === '' ? 'since it began' : `since ${given}`, start: given },
    measure: 'credits',
    budgetMicro: toMicros(facts.softCap),
    limitMicro: toMicros(facts.softCap),
    spentMicro: Math.max(0, toMicros(facts.maxCredits) - facts.balanceMicro),
    warned,
    paused: false,
  };
}

function softCapRecord(json: string): boolean {
  const event = knownEvent(JSON.parse(json));
  return event?.kind === 'budget_warning' && event.budget === 'soft_cap';
}

/** The budgets that limit `agent`: its own and the org's. */
export function standingsOf(standings: readonly Standing[], agent: string): Standing[] {
  return standings.filter((standing) => standing.scope === 'org' || standing.agent === agent);
}

/** A budget in words: "1 credit a day", "20 a month in money (at your models' prices)". */
export function budgetWords(budget: BudgetName, amount: number): string {
  if (budget === 'soft_cap') return `a soft cap of ${amount} ${amount === 1 ? 'credit' : 'credits'}`;
  const every = budget.startsWith('daily') ? 'a day' : 'a month';
  return measureOf(budget) === 'money'
    ? `${amount} ${every} in money (at your models' prices)`
    : `${amount} ${amount === 1 ? 'credit' : 'credits'} ${every}`;
}

/** Whose budget it is, in words: "writer's" or "the org's". */
export function budgetOwner(standing: Pick<Standing, 'scope' | 'agent'>): string {
  return standing.scope === 'org' ? "the org's" : `${standing.agent}'s`;
}

/** Why `agent` is paused by `standing`, in words, with how it goes on. */
export function pausedWords(standing: Standing, agent: string): string {
  const who = standing.scope === 'org' ? 'the org' : agent;
  const until = standing.budget.startsWith('daily') ? 'the day ends' : 'the month ends';
  return `Paused: ${who} is over its budget of ${budgetWords(standing.budget, fromMicros(standing.limitMicro))}. It goes on when you resume it, or when ${until}.`;
}

/** A standing as the app shows it; a money budget names the agents whose model has no prices. */
export function shownStanding(standing: Standing, agents: readonly BudgetedAgent[]): BudgetStanding {
  const unpriced = agents.filter((agent) => !agent.priced).map((agent) => agent.name);
  return {
    scope: standing.scope,
    agent: standing.agent,
    budget: standing.budget,
    period: standing.period.key,
    measure: standing.measure,
    limit: fromMicros(standing.limitMicro),
    spent: fromMicros(standing.spentMicro),
    warned: standing.warned,
    paused: standing.paused,
    pausedWords: standing.paused ? pausedWords(standing, standing.agent ?? '') : null,
    words: budgetWords(standing.budget, fromMicros(standing.budgetMicro)),
    cannotSee:
      standing.measure === 'money'
        ? unpriced.filter((name) => standing.scope === 'org' || name === standing.agent)
        : [],
  };
}
