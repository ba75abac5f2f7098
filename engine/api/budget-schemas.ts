import { z } from 'zod';

/** The skip reason of a turn not run because its agent (or the org) is paused over a budget. */
export const OVER_BUDGET = 'over_budget';

/** Whose spending a budget limits. */
export const BudgetScope = z.enum(['agent', 'org']);
export type BudgetScope = z.infer<typeof BudgetScope>;

/**
 * Which limit: a budget of budgets.json per day or month in credits or money, or credits.json's
 * soft_cap (a warning only, when an agent's spending since it was last given credits reaches it).
 */
export const BudgetName = z.enum([
  'daily_credits',
  'monthly_credits',
  'daily_money',
  'monthly_money',
  'soft_cap',
]);
export type BudgetName = z.infer<typeof BudgetName>;

/** One budget as it stands now: its limit (with what resumes added), what was spent, and whether it paused its agents. */
export const BudgetStanding = z.object({
  scope: BudgetScope,
  /** The agent for an agent's budget; null for the org's. */
  agent: z.string().nullable(),
  budget: BudgetName,
  /** The day ("2026-11-28") or month ("2026-11") it counts, in the computer's time zone. */
  period: z.string(),
  measure: z.enum(['credits', 'money']),
  /** The limit now: the budget, plus one budget for each resume in this period. */
  limit: z.number(),
  spent: z.number(),
  warned: z.boolean(),
  paused: z.boolean(),
  /** While it pauses its agents: why, and how they go on, in words; null otherwise. */
  pausedWords: z.string().nullable(),
  /** The budget in plain words, e.g. "1 credit a day". */
  words: z.string(),
  /** For a budget in money: agents whose model has no prices, whose spending it cannot see. */
  cannotSee: z.array(z.string()),
});
export type BudgetStanding = z.infer<typeof BudgetStanding>;

/** The tokens of an agent's calls to a model without prices: spending shown as "unpriced", never as 0. */
export const UnpricedUse = z.object({
  model: z.string(),
  calls: z.int(),
  inputTokens: z.int(),
  outputTokens: z.int(),
});
export type UnpricedUse = z.infer<typeof UnpricedUse>;

export const ResumeBudgetInput = z.object({ agent: z.string().min(1).max(256) }).strict();
