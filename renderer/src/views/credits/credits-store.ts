import { create } from 'zustand';
import type { CreditBalance, CreditHistoryEntry, IpcError } from '../../../../engine/api';
import { lemming } from '../../lemming';

/** How much of each agent's ledger the chart draws: the newest entries. */
export const HISTORY_WINDOW = 200;

interface CreditsStore {
  balances: CreditBalance[] | null;
  /** Each agent's newest ledger entries, oldest first (the order a chart draws them). */
  history: Record<string, CreditHistoryEntry[]>;
  error: IpcError | null;
  refresh(): Promise<void>;
}

export const useCreditsStore = create<CreditsStore>((set) => ({
  balances: null,
  history: {},
  error: null,

  async refresh() {
    const balances = await lemming().credits.balances();
    if (!balances.ok) return set({ error: balances.error });
    const pages = await Promise.all(
      balances.value.map((row) => lemming().credits.history({ agent: row.agent, limit: HISTORY_WINDOW })),
    );
    const history: Record<string, CreditHistoryEntry[]> = {};
    balances.value.forEach((row, index) => {
      const page = pages[index];
      history[row.agent] = page?.ok ? [...page.value.entries].reverse() : [];
    });
    set({ balances: balances.value, history, error: null });
  },
}));
