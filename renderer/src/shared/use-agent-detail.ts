import type { AgentDetail, IpcError } from '../../../engine/api';
import { useQuery } from '../server-state/use-query';

export interface AgentDetailState {
  detail: AgentDetail | null;
  error: IpcError | null;
  /** Takes a detail main already answered with (agent.update returns it). */
  replace(detail: AgentDetail): void;
}

/** One agent's resume, kept fresh when main says the agent (or the list) changed. */
export function useAgentDetail(agent: string): AgentDetailState {
  const { result, replace } = useQuery('agent.get', { agent });
  return {
    detail: result?.ok ? result.value : null,
    error: result && !result.ok ? result.error : null,
    replace,
  };
}
