import { create } from 'zustand';
import type { IpcError, IpcResult, OrgSummary } from '../../../engine/api';
import { serverState } from '../server-state/instance';
import { useTrustStore } from './trust-store';

type OrgState =
  | { status: 'none' }
  | { status: 'opening'; path: string }
  | { status: 'open'; org: OrgSummary }
  | { status: 'failed'; path: string; error: IpcError };

interface OrgStore {
  state: OrgState;
  /** Set when the org just opened is a fresh copy of the demo. */
  demoCreated: boolean;
  open(path: string): Promise<void>;
  /** Makes the folder at `path` a new, empty org (the user agreed to it), then opens it. */
  createOrg(path: string): Promise<void>;
  pickAndOpen(): Promise<void>;
  openDemo(fresh?: boolean): Promise<void>;
  /**
   * Asks for an empty folder, makes a new org there (from the template named, or an empty one) and opens
   * it. What went wrong is returned, and the org open before stays open; null when done or cancelled.
   */
  createNewOrg(template: string | null): Promise<IpcError | null>;
  close(): Promise<void>;
}

export const useOrgStore = create<OrgStore>((set, get) => {
  async function finishOpening(path: string, opened: IpcResult<OrgSummary>, demoCreated = false) {
    if (!opened.ok) return set({ state: { status: 'failed', path, error: opened.error } });
    // Its trust is known before any view of it (or its run bar) appears.
    const [agents] = await Promise.all([
      serverState().read('org.agents', {}),
      useTrustStore.getState().opened(),
    ]);
    if (!agents.ok) return set({ state: { status: 'failed', path, error: agents.error } });
    set({ state: { status: 'open', org: opened.value }, demoCreated });
  }

  return {
    state: { status: 'none' },
    demoCreated: false,

    async open(path) {
      set({ state: { status: 'opening', path } });
      await finishOpening(path, await serverState().write('org.open', { path }));
    },

    async createOrg(path) {
      set({ state: { status: 'opening', path } });
      await finishOpening(path, await serverState().write('org.create', { path }));
    },

    async pickAndOpen() {
      const picked = await serverState().write('org.pickFolder', {});
      if (!picked.ok) return set({ state: { status: 'failed', path: '', error: picked.error } });
      if (picked.value.path) await get().open(picked.value.path);
    },

    async openDemo(fresh) {
      set({ state: { status: 'opening', path: 'demo' } });
      const opened = await serverState().write('firstRun.openDemo', fresh ? { fresh } : {});
      await finishOpening('demo', opened, opened.ok && opened.value.created);
    },

    async createNewOrg(template) {
      const picked = await serverState().write('org.pickFolder', { forNewOrg: true });
      if (!picked.ok) return picked.error;
      const path = picked.value.path;
      if (!path) return null;
      const created =
        template === null
          ? await serverState().write('org.create', { path })
          : await serverState().write('templates.create', { template, path });
      if (!created.ok) return created.error;
      set({ state: { status: 'opening', path } });
      await finishOpening(path, created);
      return null;
    },

    async close() {
      await serverState().write('org.close', {});
      useTrustStore.getState().closed();
      set({ state: { status: 'none' }, demoCreated: false });
    },
  };
});
