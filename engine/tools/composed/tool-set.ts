import { HTTP_REQUEST, isHttpCall, type ComposedTool, type ToolSource } from './composed-tool';
import type { FieldPath } from './problem';

/** The longest chain of composed tools one call may pass through (AgentClash's limit). */
export const MAX_DELEGATION_DEPTH = 8;

export interface ToolSetProblem {
  source: ToolSource;
  path: FieldPath;
  message: string;
}

export interface CheckedToolSet {
  tools: ComposedTool[];
  problems: ToolSetProblem[];
}

/**
 * Checks that span tools: one tool per name (the first loaded wins), no tool named like the
 * primitive, no delegation cycles, no chain deeper than MAX_DELEGATION_DEPTH. Tools that fail are
 * left out, each with a problem saying why.
 */
export function checkToolSet(candidates: readonly ComposedTool[]): CheckedToolSet {
  const problems: ToolSetProblem[] = [];
  const byName = new Map<string, ComposedTool>();
  for (const tool of candidates) {
    const namePath = [...tool.source.path, 'name'];
    const earlier = byName.get(tool.name);
    if (tool.name === HTTP_REQUEST)
      problems.push({
        source: tool.source,
        path: namePath,
        message: `${HTTP_REQUEST} is the built-in primitive; give the tool another name`,
      });
    else if (earlier)
      problems.push({
        source: tool.source,
        path: namePath,
        message: `another tool named ${tool.name} is defined in ${earlier.source.file}; this one is skipped`,
      });
    else byName.set(tool.name, tool);
  }

  const tools: ComposedTool[] = [];
  for (const tool of byName.values()) {
    const trouble = chainTrouble(tool, byName);
    if (trouble)
      problems.push({
        source: tool.source,
        path: [...tool.source.path, 'implementation', 'primitive'],
        message: trouble,
      });
    else tools.push(tool);
  }
  return { tools, problems };
}

/** The names a call to `tool` passes through, following composed delegates (each tool has at most one). */
export function delegationChain(
  tool: ComposedTool,
  byName: ReadonlyMap<string, ComposedTool>,
): { chain: string[]; cycleAt: number | null } {
  const chain = [tool.name];
  let current = tool;
  for (;;) {
    if (isHttpCall(current.implementation)) return { chain, cycleAt: null };
    const next = byName.get(current.implementation.primitive);
    if (!next) return { chain, cycleAt: null };
    const seen = chain.indexOf(next.name);
    if (seen >= 0) return { chain: [...chain, next.name], cycleAt: seen };
    chain.push(next.name);
    current = next;
  }
}

function chainTrouble(tool: ComposedTool, byName: ReadonlyMap<string, ComposedTool>): string | null {
  const { chain, cycleAt } = delegationChain(tool, byName);
  if (cycleAt === 0) return `tool ${tool.name} has a delegation cycle: ${chain.join(' → ')}`;
  if (cycleAt !== null) return `tool ${tool.name} delegates into a cycle: ${chain.join(' → ')}`;
  if (chain.length > MAX_DELEGATION_DEPTH)
    return `tool ${tool.name} delegates through ${chain.length} composed tools (${chain.join(' → ')}); at most ${MAX_DELEGATION_DEPTH} are allowed`;
  return null;
}
