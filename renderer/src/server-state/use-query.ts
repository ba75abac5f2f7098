import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ChannelInput, ChannelOutput, EventName, EventPayload, IpcResult } from '../../../engine/api';
import { serverState } from './instance';
import { queryKey, type ReadChannel } from './stale-map';

export interface QueryOptions {
  /** Ask only once the input has been still this long (for answers that follow typing). */
  delayMs?: number;
}

export interface Query<T> {
  /** The answer for the current input; null while it is on its way. */
  result: IpcResult<T> | null;
  /** Shows a value main gave by another call (an update answers with what it changed). */
  replace(value: T): void;
}

/**
 * One read of main, kept fresh while the component shows it: asked when the input changes, asked again
 * (once) when a push makes it stale; components that show the same read share one answer and one call.
 * `input` null asks nothing.
 */
export function useQuery<C extends ReadChannel>(
  channel: C,
  input: ChannelInput<C> | null,
  { delayMs = 0 }: QueryOptions = {},
): Query<ChannelOutput<C>> {
  const key = input === null ? null : queryKey(channel, input);
  // A new object with the same fields is the same read: the input is kept as of its key.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const current = useMemo(() => (input === null ? null : { input }), [key]);
  const asked = useSettled(current, delayMs);

  const subscribe = useCallback(
    (changed: () => void) => (asked ? serverState().watch(channel, asked.input, changed) : () => undefined),
    [channel, asked],
  );
  const snapshot = useCallback(
    () => (asked ? serverState().peek(channel, asked.input) : null),
    [channel, asked],
  );
  const result = useSyncExternalStore(subscribe, snapshot);
  const replace = useCallback(
    (value: ChannelOutput<C>) => {
      if (asked) serverState().replace(channel, asked.input, value);
    },
    [channel, asked],
  );
  return { result, replace };
}

/** The value once it has been still for `delayMs` (at once without a delay); null while it is not. */
function useSettled<T>(value: T | null, delayMs: number): T | null {
  const [settled, setSettled] = useState<T | null>(null);
  useEffect(() => {
    if (delayMs <= 0) return;
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  if (delayMs <= 0) return value;
  return settled === value ? value : null;
}

/** Hears one push itself, while the component is shown (the pushes that carry what it shows). */
export function useServerEvent<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => serverState().on(event, (payload) => latest.current(payload)), [event]);
}
