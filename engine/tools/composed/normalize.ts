import type { z } from 'zod';
import { checkMethod } from '../../net/request-shape';
import {
  HTTP_REQUEST,
  type BodyTemplate,
  type ComposedTool,
  type HttpCall,
  type JsonTemplate,
  type NamedTemplate,
  type ToolSource,
} from './composed-tool';
import { parseTemplate, type Template, type TemplateSyntax } from './placeholders';
import type { FieldPath, FieldProblem } from './problem';
import { AgentClashTool, HttpRequestArgs, OpenClawTool, type OpenClawParameter, type Scalar } from './schema';
import { hostPatternFor, urlTemplateShape } from './url-template';
import { zodProblems } from './zod-problems';

export interface Normalized {
  tool: ComposedTool | null;
  problems: FieldProblem[];
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** A parameters block that takes no arguments, AgentClash's default. */
const NO_PARAMETERS = { type: 'object', additionalProperties: false } as const;

/** Collects problems while building one tool, so a file reports everything wrong with it at once. */
class Builder {
  readonly problems: FieldProblem[] = [];
  constructor(readonly syntax: TemplateSyntax) {}

  template(source: string, path: FieldPath): Template {
    const parsed = parseTemplate(source, this.syntax, path);
    if (parsed.ok) return parsed.value;
    this.problems.push(...parsed.error);
    return { path, source, segments: [] };
  }

  scalarTemplate(value: Scalar, path: FieldPath): Template {
    return this.template(String(value), path);
  }

  json(value: unknown, path: FieldPath): JsonTemplate {
    if (typeof value === 'string') return { kind: 'string', template: this.template(value, path) };
    if (value === null || typeof value === 'boolean') return { kind: 'literal', value };
    if (typeof value === 'number') {
      if (!Number.isFinite(value))
        this.problems.push({ path, message: 'must be a finite number (JSON has no infinity or NaN)' });
      return { kind: 'literal', value };
    }
    if (Array.isArray(value))
      return { kind: 'array', items: value.map((item, index) => this.json(item, [...path, index])) };
    if (typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).map(([key, item]) => {
        if (/\{\{|\$\{/.test(key))
          this.problems.push({
            path: [...path, key],
            message: 'placeholders are not allowed in field names, only in values',
          });
        return [key, this.json(item, [...path, key])] as const;
      });
      return { kind: 'object', entries };
    }
    this.problems.push({ path, message: 'must be text, a number, true/false, a list or a mapping' });
    return { kind: 'literal', value: null };
  }

  headers(headers: Record<string, Scalar> | undefined, path: FieldPath): NamedTemplate[] {
    return Object.entries(headers ?? {}).map(([name, value]) => ({
      name,
      value: this.scalarTemplate(value, [...path, name]),
    }));
  }

  parse<T>(schema: z.ZodType<T>, input: unknown, path: FieldPath): T | null {
    const parsed = schema.safeParse(input);
    if (parsed.success) return parsed.data;
    this.problems.push(...zodProblems(parsed.error, input, schema, path));
    return null;
  }

  finish(tool: ComposedTool | null): Normalized {
    return { tool: this.problems.length === 0 ? tool : null, problems: this.problems };
  }
}

/** An OpenClaw api-tool (`request`, `response`, `requires_env`, `allowed_hosts`) as a composed tool. */
export function normalizeOpenClaw(input: unknown, source: ToolSource): Normalized {
  const builder = new Builder('braces');
  const base = source.path;
  const raw = builder.parse(OpenClawTool, input, base);
  if (!raw) return builder.finish(null);
  const requestPath = [...base, 'request'];
  const implementation: HttpCall = {
    primitive: HTTP_REQUEST,
    method: raw.request.method,
    url: builder.template(raw.request.url, [...requestPath, 'url']),
    headers: builder.headers(raw.request.headers, [...requestPath, 'headers']),
    body: raw.request.body ? openClawBody(builder, raw.request.body, [...requestPath, 'body']) : null,
    timeoutMs: raw.request.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    allowedHosts: raw.allowed_hosts,
    summary:
      raw.response?.summary === undefined
        ? null
        : builder.template(raw.response.summary, [...base, 'response', 'summary']),
    errorTemplate:
      raw.response?.error_template === undefined
        ? null
        : builder.template(raw.response.error_template, [...base, 'response', 'error_template']),
    requiresEnv: raw.requires_env ?? [],
  };
  return builder.finish({
    name: raw.name,
    description: raw.description,
    dialect: 'openclaw',
    source,
    parameters: openClawParameterSchema(raw.parameters ?? {}),
    implementation,
  });
}

function openClawBody(
  builder: Builder,
  body: { type: 'json' | 'form' | 'text'; content: unknown },
  path: FieldPath,
): BodyTemplate | null {
  const contentPath = [...path, 'content'];
  const { content } = body;
  switch (body.type) {
    case 'json':
      return { type: 'json', content: builder.json(content, contentPath) };
    case 'text':
      if (!isScalar(content)) {
        builder.problems.push({ path: contentPath, message: 'a text body must be a single text value' });
        return null;
      }
      return { type: 'text', content: builder.scalarTemplate(content, contentPath) };
    case 'form': {
      if (typeof content !== 'object' || content === null || Array.isArray(content)) {
        builder.problems.push({ path: contentPath, message: 'a form body must map field names to values' });
        return null;
      }
      const fields: NamedTemplate[] = [];
      for (const [name, value] of Object.entries(content as Record<string, unknown>)) {
        if (/\{\{|\$\{/.test(name))
          builder.problems.push({
            path: [...contentPath, name],
            message: 'placeholders are not allowed in field names, only in values',
          });
        else if (isScalar(value))
          fields.push({ name, value: builder.scalarTemplate(value, [...contentPath, name]) });
        else
          builder.problems.push({
            path: [...contentPath, name],
            message: 'a form field must be text, a number or true/false',
          });
      }
      return { type: 'form', fields };
    }
  }
}

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** api-tools' flat parameters as JSON Schema, each `required: true` folded into `required: [...]`. */
export function openClawParameterSchema(
  parameters: Record<string, OpenClawParameter>,
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, parameter] of Object.entries(parameters)) {
    const { required: isRequired, ...schema } = parameter;
    properties[name] = schema;
    if (isRequired) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** An AgentClash composed tool (`implementation: {primitive, args}`). */
export function normalizeAgentClash(input: unknown, source: ToolSource): Normalized {
  const builder = new Builder('dollar');
  const base = source.path;
  const raw = builder.parse(AgentClashTool, input, base);
  if (!raw) return builder.finish(null);
  const argsPath = [...base, 'implementation', 'args'];
  const { primitive, args } = raw.implementation;
  if (primitive !== HTTP_REQUEST) {
    if (raw.allowed_hosts)
      builder.problems.push({
        path: [...base, 'allowed_hosts'],
        message: `allowed_hosts only applies to tools that call http_request; this one calls ${primitive}`,
      });
    return builder.finish(agentClashTool(raw, source, { primitive, args: builder.json(args, argsPath) }));
  }
  const request = builder.parse(HttpRequestArgs, args, argsPath);
  if (!request) return builder.finish(null);
  const method = checkMethod(request.method);
  if (!method.ok) builder.problems.push({ path: [...argsPath, 'method'], message: method.error.message });
  const url = builder.template(request.url, [...argsPath, 'url']);
  const implementation: HttpCall = {
    primitive: HTTP_REQUEST,
    method: method.ok ? method.value : 'GET',
    url,
    headers: builder.headers(request.headers, [...argsPath, 'headers']),
    body: agentClashBody(builder, request.body, [...argsPath, 'body']),
    timeoutMs: request.timeout_seconds === undefined ? DEFAULT_TIMEOUT_MS : request.timeout_seconds * 1000,
    allowedHosts: raw.allowed_hosts ?? impliedAllowedHosts(url),
    summary: null,
    errorTemplate: null,
    requiresEnv: [],
  };
  return builder.finish(agentClashTool(raw, source, implementation));
}

function agentClashTool(
  raw: AgentClashTool,
  source: ToolSource,
  implementation: ComposedTool['implementation'],
): ComposedTool {
  return {
    name: raw.name,
    description: raw.description,
    dialect: 'agentclash',
    source,
    parameters: raw.parameters ?? { ...NO_PARAMETERS },
    implementation,
  };
}

/** A text body stays text; a mapping or list is sent as JSON. */
function agentClashBody(builder: Builder, body: unknown, path: FieldPath): BodyTemplate | null {
  if (body === undefined) return null;
  if (typeof body === 'string') return { type: 'text', content: builder.template(body, path) };
  return { type: 'json', content: builder.json(body, path) };
}

/** Without `allowed_hosts`, a tool whose host is written literally may reach only that host. */
function impliedAllowedHosts(url: Template): 'any' | readonly string[] {
  const origin = urlTemplateShape(url).literalOrigin;
  return origin ? [hostPatternFor(origin)] : 'any';
}
