/** One catalog tool as grant editing sees it: its name and the permissions.tools entries that grant it. */
export interface Grantable {
  name: string;
  grantedBy: readonly string[];
}

/**
 * permissions.tools after turning one tool on or off, changing nothing else an agent has. Turning on
 * adds the tool's name unless something already grants it. Turning off removes every entry that
 * grants it; a group or alias that also granted other tools is replaced, in place, by their names.
 */
export function toggledGrants(
  grants: readonly string[],
  tool: Grantable,
  catalog: readonly Grantable[],
  enabled: boolean,
): string[] {
  const grantsTool = (entry: string) => tool.grantedBy.includes(entry);
  if (enabled) return grants.some(grantsTool) ? [...grants] : [...grants, tool.name];

  const result: string[] = [];
  const add = (name: string) => {
    if (!result.includes(name)) result.push(name);
  };
  for (const entry of grants) {
    if (!grantsTool(entry)) {
      add(entry);
      continue;
    }
    if (entry === tool.name) continue;
    for (const other of catalog)
      if (other.name !== tool.name && other.grantedBy.includes(entry)) add(other.name);
  }
  return result;
}
