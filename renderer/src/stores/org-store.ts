import { create } from 'zustand';
import type { AgentListItem, IpcError, OrgSummary } from '../../../engine/api';
import { lemming } from '../lemming';

type OrgState =
  | { status: 'none' }
  | { status: 'opening'; path: string }
  | { status: 'open'; org: OrgSummary; agents: AgentListItem[] }
  | { status: 'failed'; path: string; error: IpcError };

interface OrgStore {
  state: OrgState;
  open(path: string): Promise<void>;
  pickAndOpen(): Promise<void>;
}

export const useOrgStore = create<OrgStore>((set, get) => ({
  state: { status: 'none' },

  async open(path) {
    set({ state: { status: 'opening', path } });
    const opened = await lemming().org.open({ path });
    if (!opened.ok) return set({ state: { status: 'failed', path, error: opened.error } });
    const agents = await lemming().org.agents();
    if (!agents.ok) return set({ state: { status: 'failed', path, error: agents.error } });
    set({ state: { status: 'open', org: opened.value, agents: agents.value } });
  },

  async pickAndOpen() {
    const picked = await lemming().org.pickFolder();
    if (!picked.ok) return set({ state: { status: 'failed', path: '', error: picked.error } });
    if (picked.value.path) await get().open(picked.value.path);
  },
}));
