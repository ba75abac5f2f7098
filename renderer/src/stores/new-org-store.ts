import { create } from 'zustand';

/** Whether the New org dialog (the template gallery over the open org) is shown. */
export const useNewOrgDialog = create<{ open: boolean; show(): void; hide(): void }>((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));
