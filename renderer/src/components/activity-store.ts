import { create } from 'zustand';

interface ActivityStore {
  /** Labels of the work in progress, newest last. */
  pending: { id: number; label: string }[];
  /** When the last piece of work finished well; shown as "Saved". */
  lastDoneAt: number | null;
  begin(label: string): number;
  end(id: number, succeeded: boolean): void;
}

let nextId = 1;

export const useActivity = create<ActivityStore>((set, get) => ({
  pending: [],
  lastDoneAt: null,
  begin(label) {
    const id = nextId++;
    set({ pending: [...get().pending, { id, label }] });
    return id;
  },
  end(id, succeeded) {
    set({
      pending: get().pending.filter((item) => item.id !== id),
      ...(succeeded ? { lastDoneAt: Date.now() } : {}),
    });
  },
}));
