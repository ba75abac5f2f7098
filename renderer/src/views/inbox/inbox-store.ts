import { create } from 'zustand';
import { lemming } from '../../lemming';

/** How many of the human's messages are unread: the header's count and the inbox share it. */
export const useUnread = create<{
  unread: number | null;
  refresh(): Promise<void>;
  set(unread: number): void;
}>((set) => ({
  unread: null,
  async refresh() {
    const result = await lemming().inbox.unread();
    if (result.ok) set({ unread: result.value.unread });
  },
  set: (unread) => set({ unread }),
}));
