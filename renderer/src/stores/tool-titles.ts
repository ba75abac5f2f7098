import { useEffect, useState } from 'react';
import type { ToolTitles } from '../../../engine/api';
import { lemming } from '../lemming';
import { useOrgStore } from './org-store';

/** Titles change only when the org's tools do: asked again after a minute, or for a tool not in them. */
const FRESH_MS = 60_000;
/** How soon a tool missing from the titles may ask again (a server added since they were asked). */
const MISSING_MS = 2_000;

interface Asked {
  at: number;
  titles: Promise<ToolTitles>;
  answered: ToolTitles | null;
}
const asked = new Map<string, Asked>();

function titlesOf(org: string, wanted: string | undefined): Promise<ToolTitles> {
  const known = asked.get(org);
  const age = known ? Date.now() - known.at : Infinity;
  const missing = wanted !== undefined && known?.answered !== null && !known?.answered?.has(wanted);
  if (known && age < FRESH_MS && !(missing && age >= MISSING_MS)) return known.titles;
  const entry: Asked = { at: Date.now(), titles: Promise.resolve(new Map()), answered: null };
  entry.titles = lemming()
    .tools.catalog()
    .then((result): ToolTitles => {
      entry.answered = result.ok
        ? new Map(result.value.tools.map((tool) => [tool.name, tool.title]))
        : new Map<string, string>();
      return entry.answered;
    });
  asked.set(org, entry);
  return entry.titles;
}

/**
 * The titles of the open org's tools, for `toolWords`: asked once for every place that names a tool,
 * and again when `wanted` (the tool shown) is not among them. Undefined until answered (then
 * `toolWords` reads the id aloud).
 */
export function useToolTitles(wanted?: string): ToolTitles | undefined {
  const org = useOrgStore((store) => (store.state.status === 'open' ? store.state.org.path : null));
  const [titles, setTitles] = useState<{ org: string; titles: ToolTitles } | null>(null);
  useEffect(() => {
    if (org === null) return;
    let live = true;
    void titlesOf(org, wanted).then((answered) => {
      if (live) setTitles({ org, titles: answered });
    });
    return () => {
      live = false;
    };
  }, [org, wanted]);
  return titles?.org === org ? titles.titles : undefined;
}

/**
 * The titles already asked for, without asking: for what is shown while a turn runs (asking then would
 * hold up the engine, which works out the titles from every agent's tools).
 */
export function useKnownToolTitles(): ToolTitles | undefined {
  const org = useOrgStore((store) => (store.state.status === 'open' ? store.state.org.path : null));
  return org === null ? undefined : (asked.get(org)?.answered ?? undefined);
}
