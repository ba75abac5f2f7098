import { useCallback, useMemo } from 'react';
import type { AgentDetail, IpcError } from '../../../../engine/api';
import { lemming } from '../../lemming';
import { useLemmingQuery, whenAgentChanges } from '../../use-lemming-query';

export interface AgentDetailState {
  detail: AgentDetail | null;
  error: IpcError | null;
  /** Takes a detail main already answered with (agent.update returns it). */
  replace(detail: AgentDetail): void;
}

/** One agent's resume, kept fresh when main says the agent (or the list) changed. */
export function useAgentDetail(agent: string): AgentDetailState {
  const ask = useCallback(() => lemming().agent.get({ agent }), [agent]);
  const refreshWhen = useMemo(
    () => whenAgentChanges((listener) => lemming().on('agents.changed', listener), agent),
    [agent],
  );
  const { result, replace } = useLemmingQuery(agent, ask, { refreshWhen });
  return {
    detail: result?.ok ? result.value : null,
    error: result && !result.ok ? result.error : null,
    replace,
  };
}
