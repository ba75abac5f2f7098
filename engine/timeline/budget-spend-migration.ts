import type { Migration } from './migrate';

/**
 * What budgets read: an agent's or the whole org's spending since the start of a day or a month is a
 * range of the ledger by time (the ledger grows by a few rows a turn, so its indexes cost little). The
 * budget records are few: events_by_kind finds them, and no index is added to events, which every
 * append pays for.
 * The person's resumes are rows of their own, written only by the engine: a budget_resumed event that
 * came in with an imported JSON Lines file is history to read, and lifts no budget.
 */
export const budgetSpendMigration: Migration = {
  version: 8,
  name: 'spending by time',
  sql: `
    CREATE INDEX credit_ledger_by_agent_time ON credit_ledger (agent, time);
    CREATE INDEX credit_ledger_by_time ON credit_ledger (time);
    CREATE TABLE budget_resumes (
      id INTEGER PRIMARY KEY,
      scope TEXT NOT NULL,                -- 'agent' or 'org'
      agent TEXT,                         -- the agent of an agent's budget; NULL for the org's
      budget TEXT NOT NULL,               -- daily_credits, monthly_credits, daily_money, monthly_money
      period TEXT NOT NULL,               -- the day (2026-11-28) or month (2026-11) it lifts
      time TEXT NOT NULL
    );
    CREATE INDEX budget_resumes_by_period ON budget_resumes (period);
  `,
};
