import { useCallback, useEffect, useState } from 'react';
import type { AgentDetail, IpcError } from '../../../../engine/api';
import { lemming } from '../../lemming';

export interface AgentDetailState {
  detail: AgentDetail | null;
  error: IpcError | null;
  /** Takes a detail main already answered with (agent.update returns it). */
  replace(detail: AgentDetail): void;
}

interface Loaded {
  agent: string;
  detail: AgentDetail | null;
  error: IpcError | null;
}

/** One agent's resume, kept fresh when main says the agent (or the list) changed. */
export function useAgentDetail(agent: string): AgentDetailState {
  const [loaded, setLoaded] = useState<Loaded>({ agent, detail: null, error: null });
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void lemming()
      .agent.get({ agent })
      .then((result) => {
        if (!live) return;
        setLoaded(
          result.ok
            ? { agent, detail: result.value, error: null }
            : { agent, detail: null, error: result.error },
        );
      });
    return () => {
      live = false;
    };
  }, [agent, version]);

  useEffect(
    () =>
      lemming().on('agents.changed', ({ names }) => {
        if (names.length === 0 || names.includes(agent)) setVersion((count) => count + 1);
      }),
    [agent],
  );

  const replace = useCallback((detail: AgentDetail) => setLoaded({ agent, detail, error: null }), [agent]);
  const current = loaded.agent === agent ? loaded : { detail: null, error: null };
  return { detail: current.detail, error: current.error, replace };
}
