/** The titles the engine gives tools, by tool id (`tools.catalog` answers them). */
export type ToolTitles = ReadonlyMap<string, string>;

const MCP_ID = /^mcp__(.+?)__(.+)$/;

/** `read_file` → "Read file": the id read aloud, for a tool whose title the app does not know. */
function spoken(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? name : words[0]!.toUpperCase() + words.slice(1);
}

/**
 * A tool as the person reads it, from its id: the engine's title when known (given alone, or among the
 * titles of all tools: "Echo Tool", "Read a file"), else the id in words ("Echo (everything)" for
 * `mcp__everything__echo`). The one way the app names a tool; the id is shown only under "Advanced".
 */
export function toolWords(id: string, known?: ToolTitles | string): string {
  const title = typeof known === 'string' ? known : known?.get(id);
  const mcp = MCP_ID.exec(id);
  // An MCP tool without a title of its own has its bare name as title: that is no title.
  if (title && title !== id && title !== mcp?.[2]) return title;
  return mcp ? `${spoken(mcp[2]!)} (${mcp[1]})` : spoken(id);
}
