import { useCallback, useEffect, useState } from 'react';
import type { IpcResult } from '../../engine/api/result';

export interface LemmingQueryOptions {
  /** Ask only once the key has been still this long (for answers that follow typing). */
  delayMs?: number;
  /** Subscribes `refresh` to what makes the answer old (main's event pings); returns the unsubscribe. */
  refreshWhen?: (refresh: () => void) => () => void;
}

export interface LemmingQuery<T> {
  /** The answer for the current key; null while it is on its way. */
  result: IpcResult<T> | null;
  /** Shows a value main gave by another call (an update answers with what it changed). */
  replace(value: T): void;
}

/**
 * One question to main, answered for the current `key`. The question is asked again when the key
 * changes or `refreshWhen` fires; an answer to an older question is dropped, so the screen never shows
 * an answer it has moved on from. `ask` and `refreshWhen` must be stable for a key (useCallback).
 */
export function useLemmingQuery<T>(
  key: string,
  ask: () => Promise<IpcResult<T>>,
  { delayMs = 0, refreshWhen }: LemmingQueryOptions = {},
): LemmingQuery<T> {
  const [answer, setAnswer] = useState<{ key: string; result: IpcResult<T> } | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    const send = () =>
      void ask().then((result) => {
        if (current) setAnswer({ key, result });
      });
    const timer = delayMs > 0 ? setTimeout(send, delayMs) : null;
    if (timer === null) send();
    return () => {
      current = false;
      if (timer !== null) clearTimeout(timer);
    };
  }, [key, ask, delayMs, version]);

  useEffect(() => refreshWhen?.(() => setVersion((count) => count + 1)), [refreshWhen]);

  const replace = useCallback((value: T) => setAnswer({ key, result: { ok: true, value } }), [key]);
  return { result: answer?.key === key ? answer.result : null, replace };
}

/** Refreshes when main says this agent (or the list of agents) changed. */
export function whenAgentChanges(
  on: (listener: (payload: { names: string[] }) => void) => () => void,
  agent: string,
): (refresh: () => void) => () => void {
  return (refresh) =>
    on(({ names }) => {
      if (names.length === 0 || names.includes(agent)) refresh();
    });
}
