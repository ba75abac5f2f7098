import { channels, type Channel, type ChannelInput, type ChannelOutput } from './contract';
import { events, isEventName, type EventName, type EventPayload } from './events';
import type { IpcResult } from './result';

/** Sends one call to main and resolves with main's result; the transport differs, the shape does not. */
export type Invoke = (channel: Channel, input: unknown) => Promise<unknown>;

/** Registers a listener for one event's payloads; returns the function that removes it. */
export type Subscribe = (event: EventName, listener: (payload: unknown) => void) => () => void;

type Namespace<C extends string> = C extends `${infer N}.${string}` ? N : never;

type Method<C extends Channel> = (
  ...args: Record<never, never> extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>]
) => Promise<IpcResult<ChannelOutput<C>>>;

/** `window.lemming`: one method per channel, grouped by the part before the dot (`lemming.org.open`), and `on`. */
export type LemmingApi = {
  [N in Namespace<Channel>]: {
    [C in Channel as C extends `${N}.${infer M}` ? M : never]: Method<C>;
  };
} & {
  /** Listens to one of main's event pings (`lemming.on('timeline.appended', ({ lastSeq }) => …)`). */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** Builds `window.lemming` from the contract. Preload and the renderer test harness both use this. */
export function buildLemmingApi(invoke: Invoke, subscribe: Subscribe): LemmingApi {
  const api: Record<string, unknown> = {};
  for (const name of channels) {
    const [namespace, method] = name.split('.') as [string, string];
    const methods = (api[namespace] ??= {}) as Record<string, (input?: unknown) => Promise<unknown>>;
    methods[method] = (input?: unknown) => invoke(name, input ?? {});
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!isEventName(event)) throw new Error(`There is no event named ${JSON.stringify(String(event))}.`);
    return subscribe(event, listener);
  };
  return api as LemmingApi;
}

/** Where events from main arrive (`deliver`) and where `lemming.on` registers (`subscribe`). */
export interface EventHub {
  /** Takes one `{ name, payload }` message from main; anything else is ignored. */
  deliver(message: unknown): void;
  subscribe: Subscribe;
}

/**
 * The renderer side of the event streams, shared by preload and the test harness. Payloads are
 * checked against the event map, so a listener only ever sees what the contract promises, and a
 * listener that throws does not keep the others from hearing the event.
 */
export function createEventHub(
  reportError: (error: unknown) => void = (error) => console.error(error),
): EventHub {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  return {
    deliver(message) {
      if (typeof message !== 'object' || message === null) return;
      const { name, payload } = message as { name?: unknown; payload?: unknown };
      if (!isEventName(name)) return;
      const parsed = events[name].safeParse(payload);
      if (!parsed.success) return;
      for (const listener of [...(listeners.get(name) ?? [])]) {
        try {
          listener(parsed.data);
        } catch (error) {
          reportError(error);
        }
      }
    },
    subscribe(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const wrapped = (payload: unknown) => listener(payload);
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
  };
}
