import { channels, type Channel, type ChannelInput, type ChannelOutput } from './contract';
import type { IpcResult } from './result';

/** Sends one call to main and resolves with main's result; the transport differs, the shape does not. */
export type Invoke = (channel: Channel, input: unknown) => Promise<unknown>;

type Namespace<C extends string> = C extends `${infer N}.${string}` ? N : never;

type Method<C extends Channel> = (
  ...args: Record<never, never> extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>]
) => Promise<IpcResult<ChannelOutput<C>>>;

/** `window.lemming`: one method per channel, grouped by the part before the dot (`lemming.org.open`). */
export type LemmingApi = {
  [N in Namespace<Channel>]: {
    [C in Channel as C extends `${N}.${infer M}` ? M : never]: Method<C>;
  };
};

/** Builds `window.lemming` from the contract. Preload and the renderer test harness both use this. */
export function buildLemmingApi(invoke: Invoke): LemmingApi {
  const api: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const name of channels) {
    const [namespace, method] = name.split('.') as [string, string];
    api[namespace] ??= {};
    api[namespace][method] = (input?: unknown) => invoke(name, input ?? {});
  }
  return api as unknown as LemmingApi;
}
