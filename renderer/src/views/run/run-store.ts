import { create } from 'zustand';
import type { IpcError, RunState, TickReport } from '../../../../engine/api';
import { toast } from '../../components/toast-store';
import { lemming } from '../../lemming';
import { useTrustStore } from '../../stores/trust-store';

interface RunStore {
  run: RunState | null;
  /** The last tick a step ran, for the "ran tick N" line. */
  lastStep: TickReport | null;
  /** A control call is on its way to main. */
  sending: boolean;
  /** Settings → "Seconds between ticks": what the run bar offers until the user types another value. */
  defaultSeconds: number | null;
  load(): Promise<void>;
  /** The settings were saved: the run bar offers their values from now on. */
  settingsSaved(tickIntervalSeconds: number): void;
  receive(state: RunState): void;
  start(ticks: number | null, intervalMs: number | null): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  step(): Promise<void>;
  stop(): Promise<void>;
}

export const useRunStore = create<RunStore>((set) => {
  async function control(what: string, call: () => ReturnType<ReturnType<typeof lemming>['run']['pause']>) {
    set({ sending: true });
    const result = await call();
    set({ sending: false });
    if (result.ok) set({ run: result.value });
    else refused(what, result.error);
  }

  /** An org that is not trusted (it changed since the bar was drawn) answers with the trust screen. */
  function refused(what: string, error: IpcError) {
    if (error.code === 'not_trusted') void useTrustStore.getState().runRefused();
    else toast.error(`Could not ${what}`, error);
  }

  return {
    run: null,
    lastStep: null,
    sending: false,
    defaultSeconds: null,

    async load() {
      const [state, settings] = await Promise.all([lemming().run.state(), lemming().settings.get()]);
      set({
        run: state.ok ? state.value : null,
        lastStep: null,
        defaultSeconds: settings.ok ? settings.value.run.tickIntervalSeconds : null,
      });
    },

    settingsSaved(tickIntervalSeconds) {
      set({ defaultSeconds: tickIntervalSeconds });
    },

    receive(state) {
      set({ run: state });
    },

    start: (ticks, intervalMs) =>
      control('start the run', () =>
        lemming().run.start({
          ...(ticks !== null ? { ticks } : {}),
          ...(intervalMs !== null ? { intervalMs } : {}),
        }),
      ),
    pause: () => control('pause the run', () => lemming().run.pause()),
    resume: () => control('resume the run', () => lemming().run.resume()),
    stop: () => control('stop the run', () => lemming().run.stop()),

    async step() {
      set({ sending: true });
      const result = await lemming().run.step();
      set({ sending: false });
      if (!result.ok) return refused('run one tick', result.error);
      set({ run: result.value.state, lastStep: result.value.report });
    },
  };
});
