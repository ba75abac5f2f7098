import { create } from 'zustand';
import type { IpcResult } from '../../../engine/api';
import { toast } from './toast-store';

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

/**
 * Runs one IPC call with the header's progress indicator on; a failure becomes an error toast that says
 * why, and the caller gets null. `label` says what is happening ("Saving the model…").
 */
export async function attempt<T>(
  label: string,
  failureTitle: string,
  call: () => Promise<IpcResult<T>>,
): Promise<T | null> {
  const activity = useActivity.getState();
  const id = activity.begin(label);
  let result: IpcResult<T>;
  try {
    result = await call();
  } catch (error) {
    result = { ok: false, error: { code: 'internal', message: String(error) } };
  }
  activity.end(id, result.ok);
  if (result.ok) return result.value;
  toast.error(failureTitle, result.error);
  return null;
}
