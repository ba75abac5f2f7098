import type { McpServerRecord } from '../api/approval-schemas';
import { toolWords } from '../api/tool-words';
import { toolSuccess, type ToolResult } from './tool-result';

/** A call a rehearsal held back: what the agent would have done, its arguments as the model gave them. */
export interface HeldCall {
  tool: string;
  /** The tool's name for people ("Write a file"). */
  title: string;
  args: unknown;
  /** What it would have acted on, in words ("notes.md (120 characters)"); '' when the arguments say nothing plain. */
  target: string;
}

/**
 * A rehearsal's toolbox setting: every call that does not only read is held back (neither run nor
 * asked about) and reported to `held`; the model is told what would have happened.
 */
export interface RehearsalHold {
  /** The person's record of an MCP server, so a read-only tool of a server whose hints they trust runs. */
  mcpRecord(server: string): McpServerRecord | undefined;
  /** Told of each call held back, with the result the model is given in its place. */
  held(call: HeldCall, told: ToolResult): void;
}

const PATH_KEYS = ['path', 'file_path', 'absolute_path', 'dir_path', 'target'] as const;
const CONTENT_KEYS = ['content', 'new_string', 'patch', 'input'] as const;
const MAX_TARGET_CHARS = 120;

function field(args: unknown, keys: readonly string[]): string | null {
  if (args === null || typeof args !== 'object') return null;
  for (const key of keys) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

function shortened(text: string): string {
  const line = text.split('\n', 1)[0]!;
  return line.length > MAX_TARGET_CHARS || line !== text ? `${line.slice(0, MAX_TARGET_CHARS)}…` : line;
}

/** What a held-back call would have done, and what the model is told instead of its result. */
export function heldBack(
  spec: { name: string; kind: string; title: string },
  args: unknown,
): { call: HeldCall; result: ToolResult } {
  const title = toolWords(spec.name, spec.title);
  const path = field(args, PATH_KEYS);
  const content = field(args, CONTENT_KEYS);
  const command = field(args, ['command', 'cmd']);
  const url = field(args, ['url']);
  const key = field(args, ['key']);
  let target = '';
  let told: string;
  if (spec.kind === 'shell' && command) {
    target = shortened(command);
    told = `this would run the command \`${target}\`; nothing was run`;
  } else if (spec.name === 'http_request' && url) {
    const method = field(args, ['method']) ?? 'GET';
    target = `${method} ${shortened(url)}`;
    told = `this would send ${target}; nothing was sent`;
  } else if (spec.kind === 'memory' && key) {
    target = `'${key}'`;
    told = `this would save the memory ${target}; nothing was saved`;
  } else if (spec.kind === 'file' && path && content !== null) {
    target = `${shortened(path)} (${content.length} characters)`;
    told = `this would write ${content.length} characters to ${shortened(path)}; nothing was written`;
  } else if (path) {
    target = shortened(path);
    told = `this would ${lowerFirst(title)} (${target}); it was not done`;
  } else {
    told = `this would ${lowerFirst(title)}; it was not done`;
  }
  return {
    call: { tool: spec.name, title, args, target },
    result: toolSuccess(`Rehearsal: ${told}. Go on as if it had worked.`),
  };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
