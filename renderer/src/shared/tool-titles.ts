import { useMemo } from 'react';
import type { IpcResult, ToolsCatalog, ToolTitles } from '../../../engine/api';
import { serverState } from '../server-state/instance';
import { useQuery } from '../server-state/use-query';
import { useOrgStore } from '../stores/org-store';

function titlesOf(result: IpcResult<ToolsCatalog> | null): ToolTitles | undefined {
  return result?.ok ? new Map(result.value.tools.map((tool) => [tool.name, tool.title])) : undefined;
}

/**
 * The titles of the open org's tools, for `toolWords`: one read of the catalog for every place that names
 * a tool, fresh when the org's tools change. Undefined until answered (then `toolWords` reads the id aloud).
 */
export function useToolTitles(): ToolTitles | undefined {
  const open = useOrgStore((store) => store.state.status === 'open');
  const { result } = useQuery('tools.catalog', open ? {} : null);
  return useMemo(() => titlesOf(result), [result]);
}

/**
 * The titles already read, without asking: for what is shown while a turn runs (asking then would hold up
 * the engine, which works out the titles from every agent's tools).
 */
export function useKnownToolTitles(): ToolTitles | undefined {
  const known = serverState().peek('tools.catalog', {});
  return useMemo(() => titlesOf(known), [known]);
}
