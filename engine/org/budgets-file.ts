import { z } from 'zod';
import { boundConfigFile, type ConfigFileSpec } from './config-file';
import type { LocatedJson } from '../files/json-problems';
import type { Problem } from '../api/problem';
import { locatePath } from '../files/json-tree';

/**
 * lemming/config/budgets.json, a file LeMMing does not read: spending limits per day and per month, for
 * the whole org and for single agents. A budget only ever restricts, so an org's own file may set one.
 */
export const BUDGETS_FILE = 'lemming/config/budgets.json';

/** What a limit counts: every credit charged (turns, model calls, tools), or money spent on models at their models.json prices. */
export const BUDGET_LIMIT_KEYS = [
  'daily_credits',
  'monthly_credits',
  'daily_money',
  'monthly_money',
] as const;
export type BudgetLimitKey = (typeof BUDGET_LIMIT_KEYS)[number];

/** The largest limit: beyond it a limit is no limit, and its millionths would not be exact. */
const MAX_LIMIT = 1_000_000_000;

const limit = (key: BudgetLimitKey) =>
  z
    .number({ error: `${key} must be a number` })
    .positive(`${key} must be more than 0 (leave it out for no limit)`)
    .max(MAX_LIMIT, `${key} must be at most ${MAX_LIMIT.toLocaleString('en-US')} (leave it out for no limit)`)
    .optional();

/** The limits of the org or of one agent; other keys are kept and warned about. */
export const BudgetLimitsSchema = z.looseObject(
  Object.fromEntries(BUDGET_LIMIT_KEYS.map((key) => [key, limit(key)])) as Record<
    BudgetLimitKey,
    ReturnType<typeof limit>
  >,
  { error: 'a budget must be an object of limits, like {"daily_credits": 5}' },
);
export type BudgetLimits = z.output<typeof BudgetLimitsSchema>;

/** `{ "org": {limits}, "agents": { "<agent>": {limits} } }`; both parts may be left out. */
export const BudgetsFileSchema = z.looseObject(
  {
    org: BudgetLimitsSchema.optional(),
    agents: z
      .record(z.string(), BudgetLimitsSchema, { error: 'agents must be an object of agent name: limits' })
      .optional(),
  },
  { error: 'budgets.json must be an object with "org" and "agents"' },
);
export type BudgetsFile = z.output<typeof BudgetsFileSchema>;

function unknownKeys(
  value: unknown,
  known: readonly string[],
  located: LocatedJson,
  where: readonly string[],
): Problem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => ({
      file: BUDGETS_FILE,
      field: [...where, key].join('.'),
      message: `"${key}" is not a budget this app knows (it knows ${known.join(', ')}); it is kept and has no effect`,
      ...locatePath(located.text, located.root, [...where, key]),
    }));
}

export const BUDGETS_SPEC: ConfigFileSpec<typeof BudgetsFileSchema> = {
  file: BUDGETS_FILE,
  schema: BudgetsFileSchema,
  defaultDocument: {},
  warnings: (raw, _file, located) => {
    const document = raw as { org?: unknown; agents?: Record<string, unknown> };
    return [
      ...unknownKeys(raw, ['org', 'agents'], located, []),
      ...unknownKeys(document.org, BUDGET_LIMIT_KEYS, located, ['org']),
      ...Object.entries(
        typeof document.agents === 'object' && document.agents !== null ? document.agents : {},
      ).flatMap(([agent, limits]) => unknownKeys(limits, BUDGET_LIMIT_KEYS, located, ['agents', agent])),
    ];
  },
};

const budgetsFile = boundConfigFile(BUDGETS_SPEC);

/** The org's budgets; a missing file is no budgets. */
export const readBudgets = budgetsFile.read;
