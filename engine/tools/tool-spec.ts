import type { ToolKind } from '../api/agent-schemas';
import type { ApprovalTarget, McpToolOrigin, ToolAnnotations } from '../api/tool-schemas';
import type { ToolDefinition } from '../models/types';
import type { OrgPolicy } from '../org/policy-file';
import type { Resume } from '../org/resume-schema';
import type { TurnMemory } from '../memory/turn-memory';
import type { AgentSandbox } from '../sandbox/agent-sandbox';
import type { ToolOutcome } from './tool-result';
import type { Redaction } from '../secrets/redactor';
import type { AskPerson } from './mcp/mcp-elicitation';
import type { ModelAsker } from './mcp/mcp-sampling';

/** What a tool can touch; the org and each agent decide which kinds are allowed (docs/ARCHITECTURE.md, “Tools”). */
export { ToolKind } from '../api/agent-schemas';

/** Everything a tool may use while it runs as one agent in one turn. */
export interface ToolContext {
  orgPath: string;
  /** `<org>/agents/<folder>`. */
  agentDir: string;
  resume: Resume;
  tick: number;
  memory: TurnMemory;
  /** The agent's file sandbox: every path a tool touches goes through it. */
  sandbox: AgentSandbox;
  /** The org's agents as the engine knows them this tick. */
  agents: readonly { name: string; title: string }[];
  /** The org's tool policy (lemming/config/policy.json) as it was when the turn began; absent means the default (network off). */
  policy?: OrgPolicy;
  /** The engine's redaction: a tool that cuts text cuts with it (`cutText`, `redactCut`), so no secret's first characters stay at the cut. */
  redaction: Redaction;
  signal?: AbortSignal;
  /** Asks the person to fill in a form an MCP server wants during the call; absent when no one can be asked. */
  askPerson?: AskPerson;
  /** The agent's model, for a question an MCP server asks during the call (sampling); absent outside a turn. */
  askModel?: ModelAsker;
}

/**
 * One tool: what the model is told (`definition`), what it can touch (`kind`), and how it runs. `run`
 * never throws: bad arguments, refusals and failures are `{ success: false, error }` results.
 */
export interface ToolSpec {
  name: string;
  kind: ToolKind;
  /** A name for people, e.g. "Read a file". */
  title: string;
  definition: ToolDefinition;
  /**
   * For tools whose input is raw text in a grammar rather than JSON arguments (codex's apply_patch):
   * the grammar, for providers that support such "custom" tools. Others get `definition`.
   */
  freeform?: { syntax: 'lark'; grammar: string; description: string };
  /** For an MCP tool: what its server says about it (read-only, destructive, idempotent, open-world). */
  annotations?: ToolAnnotations;
  /** For a composed tool: the built-in call it ends in, which the approval rule judges in its place. */
  endsIn?: ApprovalTarget;
  /** For an MCP tool: its server's identity and the tool as listed, which the person's approval choices are kept for. */
  mcpTool?: McpToolOrigin;
  /** The engine's own tool that only reads (an MCP server's resources): no approval by the built-in rule. */
  onlyReads?: true;
  run(args: unknown, context: ToolContext): Promise<ToolOutcome>;
}
