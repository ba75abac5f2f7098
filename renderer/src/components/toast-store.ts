import { create } from 'zustand';
import type { IpcError } from '../../../engine/api';
import { describeError } from './describe-error';

export type ToastTone = 'error' | 'success' | 'info';

export interface Toast {
  id: number;
  tone: ToastTone;
  title: string;
  detail?: string;
  action?: { label: string; run: () => void };
}

interface ToastStore {
  toasts: Toast[];
  show(toast: Omit<Toast, 'id'>): number;
  dismiss(id: number): void;
}

/** Confirmations fade on their own; errors stay until the user has read and dismissed them. */
const CONFIRMATION_MS = 6000;

let nextId = 1;

export const useToasts = create<ToastStore>((set, get) => ({
  toasts: [],
  show(toast) {
    const id = nextId++;
    set({ toasts: [...get().toasts, { ...toast, id }].slice(-5) });
    if (toast.tone !== 'error') setTimeout(() => get().dismiss(id), CONFIRMATION_MS);
    return id;
  },
  dismiss(id) {
    set({ toasts: get().toasts.filter((toast) => toast.id !== id) });
  },
}));

/** Shorthands any view can call outside React. */
export const toast = {
  error: (title: string, error: IpcError | string) =>
    useToasts.getState().show({
      tone: 'error',
      title,
      detail: typeof error === 'string' ? error : describeError(error),
    }),
  success: (title: string, detail?: string, action?: Toast['action']) =>
    useToasts
      .getState()
      .show({ tone: 'success', title, ...(detail ? { detail } : {}), ...(action ? { action } : {}) }),
  info: (title: string, detail?: string) =>
    useToasts.getState().show({ tone: 'info', title, ...(detail ? { detail } : {}) }),
};
