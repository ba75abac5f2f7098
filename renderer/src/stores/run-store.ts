import { create } from 'zustand';
import type { IpcError, IpcResult, RunState } from '../../../engine/api';
import { toast } from '../components/toast-store';
import { serverState } from '../server-state/instance';
import type { WriteChannel } from '../server-state/stale-map';
import { useQuery } from '../server-state/use-query';
import { useTrustStore } from './trust-store';

/** The run as main last said it (its pushes keep it current); null while it is being read. */
export function useRunState(): RunState | null {
  const { result } = useQuery('run.state', {});
  return result?.ok ? result.value : null;
}

/** Settings → "Seconds between ticks": what the run bar offers until the user types another value. */
export function useDefaultSeconds(): number | null {
  const { result } = useQuery('settings.get', {});
  return result?.ok ? result.value.run.tickIntervalSeconds : null;
}

interface RunStore {
  /** A control call is on its way to main. */
  sending: boolean;
  start(ticks: number | null, intervalMs: number | null): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
  step(): Promise<void>;
  stop(): Promise<void>;
}

/** The run controls' own state (a call on its way); the run itself is server state. */
export const useRunStore = create<RunStore>((set) => {
  async function control<C extends WriteChannel>(
    what: string,
    channel: C,
    input: object,
    stateOf: (value: never) => RunState,
  ) {
    set({ sending: true });
    const result = (await serverState().write(channel, input as never)) as IpcResult<unknown>;
    set({ sending: false });
    if (!result.ok) return refused(what, result.error);
    serverState().replace('run.state', {}, stateOf(result.value as never));
    return result.value;
  }

  /** An org that is not trusted (it changed since the bar was drawn) answers with the trust screen. */
  function refused(what: string, error: IpcError) {
    if (error.code === 'not_trusted') void useTrustStore.getState().runRefused();
    else toast.error(`Could not ${what}`, error);
  }

  const whole = (state: RunState) => state;

  return {
    sending: false,

    start: async (ticks, intervalMs) =>
      void (await control(
        'start the run',
        'run.start',
        { ...(ticks !== null ? { ticks } : {}), ...(intervalMs !== null ? { intervalMs } : {}) },
        whole,
      )),
    pause: async () => void (await control('pause the run', 'run.pause', {}, whole)),
    resume: async () => void (await control('resume the run', 'run.resume', {}, whole)),
    stop: async () => void (await control('stop the run', 'run.stop', {}, whole)),

    step: async () =>
      void (await control('run one tick', 'run.step', {}, (value: { state: RunState }) => value.state)),
  };
});
