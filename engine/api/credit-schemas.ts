import { z } from 'zod';
import { BudgetStanding, UnpricedUse } from './budget-schemas';

export const CreditBalance = z.object({
  agent: z.string(),
  /** Null until the agent's first turn seeds it from credits.json or its resume. */
  balance: z.number().nullable(),
  maxCredits: z.number().nullable(),
  softCap: z.number().nullable(),
  outOfCredits: z.boolean(),
  /** Its model has no prices: what it used in tokens ("unpriced", never 0); null for a priced model. */
  unpriced: UnpricedUse.nullable(),
  /** The budgets that limit it (its own, then the org's), as they stand now. */
  budgets: z.array(BudgetStanding),
  /** Why a budget pauses it, in words; null when none does. */
  overBudget: z.string().nullable(),
});
export type CreditBalance = z.infer<typeof CreditBalance>;

export const CreditEntryKind = z.enum([
  'grant',
  'top_up',
  'turn',
  'model_call',
  'tool',
  'adjustment',
  'external_adjustment',
]);

export const CreditHistoryEntry = z.object({
  id: z.int(),
  kind: CreditEntryKind,
  /** Positive adds credits, negative spends them. */
  amount: z.number(),
  /** The balance after this entry: the series a chart of credits over time draws. */
  balance: z.number(),
  reason: z.string(),
  tick: z.int().nullable(),
  turn: z.string().nullable(),
  time: z.string(),
});
export type CreditHistoryEntry = z.infer<typeof CreditHistoryEntry>;

export const CreditHistoryInput = z
  .object({
    agent: z.string().min(1).max(256),
    /** The previous page's nextCursor: entries older than this id. */
    before: z.int().positive().optional(),
    limit: z.int().min(1).max(1000).optional(),
  })
  .strict();

export const CreditHistory = z.object({
  entries: z.array(CreditHistoryEntry),
  nextCursor: z.int().nullable(),
});

export const TopUpInput = z
  .object({
    agent: z.string().min(1).max(256),
    amount: z.number().finite().positive('A top-up must be more than 0 credits.').max(1e9),
  })
  .strict();

export const HumanImportance = z.enum(['normal', 'high', 'critical']);
export type HumanImportance = z.infer<typeof HumanImportance>;

export const SendMessageInput = z
  .object({
    text: z
      .string()
      .trim()
      .min(1, 'Write a message first.')
      .max(100_000, 'A message can be at most 100,000 characters.'),
    importance: HumanImportance.optional(),
    /** The agent it is for; everyone reading the human's outbox when absent. */
    target: z.string().min(1).max(256).nullish(),
  })
  .strict();

export const SentMessage = z.object({
  id: z.string(),
  tick: z.int(),
  /** The outbox file, relative to the org. */
  file: z.string(),
});
