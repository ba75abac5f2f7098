/**
 * From this many tools on, a list of tools gets a search box (and a server's tools their groups): the
 * app's own tools alone, or a small server's, are read at a glance.
 */
export const SEARCH_FROM = 20;

export interface ToolGroup<T> {
  label: string;
  tools: T[];
}

const MCP_ID = /^mcp__(.+?)__/;

/** The app's own tools first, then each tool server's, in the order they came. */
export function groupByServer<T>(tools: readonly T[], idOf: (tool: T) => string): ToolGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const tool of tools) {
    const server = MCP_ID.exec(idOf(tool))?.[1];
    const label = server === undefined ? 'The app’s own tools' : `From ${server}`;
    groups.set(label, [...(groups.get(label) ?? []), tool]);
  }
  return [...groups].map(([label, grouped]) => ({ label, tools: grouped }));
}

/** A server's tools by what they say they do: those that only read first, then those that change things. */
export function groupByEffect<T>(tools: readonly T[], readsOnly: (tool: T) => boolean): ToolGroup<T>[] {
  return [
    { label: 'Reads only (as the server says)', tools: tools.filter(readsOnly) },
    { label: 'May change things', tools: tools.filter((tool) => !readsOnly(tool)) },
  ].filter((group) => group.tools.length > 0);
}

/** The tools whose words (title, id, description) hold every word of the query, in any case. */
export function searchTools<T>(tools: readonly T[], query: string, wordsOf: (tool: T) => string[]): T[] {
  const wanted = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (wanted.length === 0) return [...tools];
  return tools.filter((tool) => {
    const words = wordsOf(tool).join(' ').toLowerCase();
    return wanted.every((word) => words.includes(word));
  });
}
