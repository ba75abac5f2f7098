import type Database from 'better-sqlite3';
import type { Result } from '../api/result';

export type LedgerEntryKind =
  'grant' | 'top_up' | 'turn' | 'model_call' | 'tool' | 'adjustment' | 'external_adjustment';

export interface LedgerEntry {
  id: number;
  agent: string;
  kind: LedgerEntryKind;
  amountMicro: number;
  balanceMicro: number;
  reason: string;
  tick: number | null;
  turn: string | null;
  time: string;
}

export interface LedgerPosting {
  agent: string;
  kind: LedgerEntryKind;
  /** Positive adds credits, negative spends them. */
  amountMicro: number;
  reason: string;
  tick?: number | null;
  turn?: string | null;
  time: string;
}

/** Why a posting was refused, and the balance it left as it was. */
export interface PostingRefusal {
  balanceMicro: number;
  reason: string;
}

/** The balance after the posting (µcredits), or the refusal. */
export type PostingResult = Result<number, PostingRefusal>;

/**
 * The append-only credits ledger. A posting that would take a balance below zero is refused (and the
 * table's CHECK constraint refuses it again), so no balance is ever negative.
 */
export class CreditLedger {
  private readonly selectBalance: Database.Statement;
  private readonly insertEntry: Database.Statement;
  private readonly selectHistory: Database.Statement;
  private readonly selectAllBalances: Database.Statement;

  constructor(db: Database.Database) {
    // `+?`: see PLAN_FREE_PARAMETER in timeline/sqlite.ts (this runs several times a turn).
    this.selectBalance = db
      .prepare('SELECT balance_micro FROM credit_ledger WHERE agent = +? ORDER BY id DESC LIMIT 1')
      .pluck();
    this.insertEntry = db.prepare(
      'INSERT INTO credit_ledger (agent, kind, amount_micro, balance_micro, reason, tick, turn, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectHistory = db.prepare(
      `SELECT id, agent, kind, amount_micro AS amountMicro, balance_micro AS balanceMicro, reason, tick, turn, time
       FROM credit_ledger WHERE agent = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    );
    this.selectAllBalances = db.prepare(
      `SELECT agent, balance_micro AS balanceMicro FROM credit_ledger
       WHERE id IN (SELECT max(id) FROM credit_ledger GROUP BY agent) ORDER BY agent`,
    );
  }

  /** The agent's balance, or null when the ledger has never heard of it. */
  balance(agent: string): number | null {
    return (this.selectBalance.get(agent) as number | undefined) ?? null;
  }

  balances(): Map<string, number> {
    const rows = this.selectAllBalances.all() as { agent: string; balanceMicro: number }[];
    return new Map(rows.map((row) => [row.agent, row.balanceMicro]));
  }

  post(posting: LedgerPosting): PostingResult {
    const current = this.balance(posting.agent) ?? 0;
    const next = current + posting.amountMicro;
    if (next < 0) {
      return {
        ok: false,
        error: {
          balanceMicro: current,
          reason: `${posting.agent} has ${current} µcredits, ${-posting.amountMicro} needed`,
        },
      };
    }
    this.insertEntry.run(
      posting.agent,
      posting.kind,
      posting.amountMicro,
      next,
      posting.reason,
      posting.tick ?? null,
      posting.turn ?? null,
      posting.time,
    );
    return { ok: true, value: next };
  }

  /** Newest first, keyset-paged by entry id. */
  history(agent: string, options: { before?: number; limit?: number } = {}): LedgerEntry[] {
    return this.selectHistory.all(
      agent,
      options.before ?? Number.MAX_SAFE_INTEGER,
      Math.min(options.limit ?? 200, 1000),
    ) as LedgerEntry[];
  }
}
