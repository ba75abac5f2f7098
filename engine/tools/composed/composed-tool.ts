import type { HttpMethod } from '../../net/request-shape';
import type { Template } from './placeholders';
import type { FieldPath } from './problem';

/** AgentClash-style (`implementation: {primitive, args}`) or OpenClaw api-tools (`request`, `response`). */
export type Dialect = 'agentclash' | 'openclaw';

/** Org-level tools live in `<org>/tools/`, agent-level ones in `<org>/agents/<folder>/api-tools/`. */
export interface ToolSource {
  /** Relative to the org folder, with `/` separators. */
  file: string;
  scope: 'org' | 'agent';
  /** Where the tool starts inside the file: [] for a one-tool file, ['tools', 'custom', 2] in a pack. */
  path: FieldPath;
}

/** A YAML value whose strings are templates; rendered into JSON for a body or a delegate's arguments. */
export type JsonTemplate =
  | { kind: 'string'; template: Template }
  | { kind: 'literal'; value: null | boolean | number }
  | { kind: 'array'; items: readonly JsonTemplate[] }
  | { kind: 'object'; entries: readonly (readonly [string, JsonTemplate])[] };

export interface NamedTemplate {
  name: string;
  value: Template;
}

export type BodyTemplate =
  | { type: 'json'; content: JsonTemplate }
  | { type: 'form'; fields: readonly NamedTemplate[] }
  | { type: 'text'; content: Template };

export const HTTP_REQUEST = 'http_request';

/** A tool that sends one HTTP request through the SSRF-safe primitive. */
export interface HttpCall {
  primitive: typeof HTTP_REQUEST;
  method: HttpMethod;
  url: Template;
  headers: readonly NamedTemplate[];
  body: BodyTemplate | null;
  timeoutMs: number;
  /** `allowed_hosts` patterns the URL must match, or 'any' public host. */
  allowedHosts: 'any' | readonly string[];
  /** OpenClaw `response`: texts shown instead of a bare status line. */
  summary: Template | null;
  errorTemplate: Template | null;
  /** OpenClaw `requires_env`: settings that must be filled in before the tool is usable. */
  requiresEnv: readonly string[];
}

/** A tool that calls another tool (a primitive or another composed tool) with templated arguments. */
export interface Delegation {
  primitive: string;
  args: JsonTemplate;
}

/** One composed tool from either dialect, validated and ready to be offered and run. */
export interface ComposedTool {
  name: string;
  description: string;
  dialect: Dialect;
  source: ToolSource;
  /** A JSON Schema for the arguments, always `type: object` at the top. */
  parameters: Record<string, unknown>;
  implementation: HttpCall | Delegation;
}

export const isHttpCall = (implementation: HttpCall | Delegation): implementation is HttpCall =>
  implementation.primitive === HTTP_REQUEST && 'url' in implementation;

/** Every template of a tool, in file order. */
export function templatesOf(tool: ComposedTool): Template[] {
  const implementation = tool.implementation;
  if (!isHttpCall(implementation)) return jsonTemplates(implementation.args);
  const templates = [implementation.url, ...implementation.headers.map((header) => header.value)];
  if (implementation.body) templates.push(...bodyTemplates(implementation.body));
  if (implementation.summary) templates.push(implementation.summary);
  if (implementation.errorTemplate) templates.push(implementation.errorTemplate);
  return templates;
}

export function bodyTemplates(body: BodyTemplate): Template[] {
  switch (body.type) {
    case 'json':
      return jsonTemplates(body.content);
    case 'form':
      return body.fields.map((field) => field.value);
    case 'text':
      return [body.content];
  }
}

export function jsonTemplates(node: JsonTemplate): Template[] {
  switch (node.kind) {
    case 'string':
      return [node.template];
    case 'literal':
      return [];
    case 'array':
      return node.items.flatMap(jsonTemplates);
    case 'object':
      return node.entries.flatMap(([, value]) => jsonTemplates(value));
  }
}
