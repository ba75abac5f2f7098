import type Database from 'better-sqlite3';

/** What a budget counts: every credit charged (turns, model calls, tools), or money spent on model calls at their prices. */
export type SpendMeasure = 'credits' | 'money';

/** A budget record as the timeline holds it (budget_warning, budget_paused, budget_resumed). */
export interface StoredBudgetRecord {
  seq: number;
  kind: 'budget_warning' | 'budget_paused' | 'budget_resumed';
  agent: string | null;
  json: string;
}

/** One resume of a budget by the person: whose budget, which, and the day or month it lifts. */
export interface BudgetResume {
  scope: 'agent' | 'org';
  agent: string | null;
  budget: string;
  period: string;
}

/** The tokens an agent's calls to one model used, for a model without prices. */
export interface ModelTokens {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The named queries budgets are decided from: spending in a time range of the credit ledger, the budget
 * records since a time, the person's resumes, and the tokens of calls to a model. Times are ISO 8601 (UTC) as every row holds them.
 */
export class BudgetSpendStore {
  private readonly agentSpent: Database.Statement;
  private readonly agentModelSpent: Database.Statement;
  private readonly orgSpent: Database.Statement;
  private readonly orgModelSpent: Database.Statement;
  private readonly recordsSince: Database.Statement;
  private readonly tokensOfModel: Database.Statement;
  private readonly lastGiven: Database.Statement;
  private readonly insertResume: Database.Statement;
  private readonly selectResumes: Database.Statement;

  constructor(db: Database.Database) {
    const spending = `coalesce(-sum(amount_micro), 0) FROM credit_ledger WHERE amount_micro < 0`;
    this.agentSpent = db
      .prepare(`SELECT ${spending} AND agent = ? AND time >= ? AND kind IN ('turn', 'model_call', 'tool')`)
      .pluck();
    this.agentModelSpent = db
      .prepare(`SELECT ${spending} AND agent = ? AND time >= ? AND kind = 'model_call'`)
      .pluck();
    this.orgSpent = db
      .prepare(`SELECT ${spending} AND time >= ? AND kind IN ('turn', 'model_call', 'tool')`)
      .pluck();
    this.orgModelSpent = db.prepare(`SELECT ${spending} AND time >= ? AND kind = 'model_call'`).pluck();
    this.recordsSince = db.prepare(
      `SELECT seq, kind, agent, json FROM events
       WHERE kind IN ('budget_warning', 'budget_paused', 'budget_resumed') AND time >= ? ORDER BY seq`,
    );
    this.lastGiven = db
      .prepare('SELECT max(time) FROM credit_ledger WHERE agent = ? AND amount_micro > 0')
      .pluck();
    this.insertResume = db.prepare(
      'INSERT INTO budget_resumes (scope, agent, budget, period, time) VALUES (?, ?, ?, ?, ?)',
    );
    this.selectResumes = db.prepare(
      'SELECT scope, agent, budget, period FROM budget_resumes WHERE period IN (?, ?) ORDER BY id',
    );
    this.tokensOfModel = db.prepare(
      `SELECT count(*) AS calls,
              coalesce(sum(json_extract(json, '$.usage.inputTokens')), 0) AS inputTokens,
              coalesce(sum(json_extract(json, '$.usage.outputTokens')), 0) AS outputTokens
       FROM events WHERE agent = ? AND kind = 'model_call' AND json_extract(json, '$.model') = ?`,
    );
  }

  /** µcredits spent since `since` by `agent`, or by the whole org when `agent` is null. */
  spentSince(agent: string | null, since: string, measure: SpendMeasure): number {
    if (agent === null)
      return (measure === 'money' ? this.orgModelSpent : this.orgSpent).get(since) as number;
    return (measure === 'money' ? this.agentModelSpent : this.agentSpent).get(agent, since) as number;
  }

  /** Every budget record written since `since`, oldest first. */
  budgetRecordsSince(since: string): StoredBudgetRecord[] {
    return this.recordsSince.all(since) as StoredBudgetRecord[];
  }

  /** The person resumed a budget for the rest of `period`. */
  recordResume(resume: BudgetResume & { time: string }): void {
    this.insertResume.run(resume.scope, resume.agent, resume.budget, resume.period, resume.time);
  }

  /** The resumes of a day and of a month (their keys), oldest first. */
  resumesOf(day: string, month: string): BudgetResume[] {
    return this.selectResumes.all(day, month) as BudgetResume[];
  }

  /** When `agent` was last given credits (its first grant, a top-up, a raise by hand); null if never. */
  lastGivenCredits(agent: string): string | null {
    return (this.lastGiven.get(agent) as string | null) ?? null;
  }

  /** The tokens of every call `agent` made to the model `modelKey` (models.json key). */
  modelTokens(agent: string, modelKey: string): ModelTokens {
    return this.tokensOfModel.get(agent, modelKey) as ModelTokens;
  }
}
