import type { Migration } from './migrate';

/**
 * What budgets read: an agent's or the whole org's spending since the start of a day or a month is a
 * range of the ledger by time, and the budget records of the month a range of events by kind and time.
 */
export const budgetSpendMigration: Migration = {
  version: 8,
  name: 'spending by time',
  sql: `
    CREATE INDEX credit_ledger_by_agent_time ON credit_ledger (agent, time);
    CREATE INDEX credit_ledger_by_time ON credit_ledger (time);
    CREATE INDEX events_by_kind_time ON events (kind, time);
  `,
};
