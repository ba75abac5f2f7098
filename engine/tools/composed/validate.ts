import { matchesAnyHostPattern, normalizeHost, parseHostPatterns } from '../../net/host-patterns';
import { checkHeaders } from '../../net/request-shape';
import { secretNameProblem } from '../../secrets/secret-name';
import {
  bodyTemplates,
  HTTP_REQUEST,
  isHttpCall,
  jsonTemplates,
  type ComposedTool,
  type Delegation,
  type HttpCall,
} from './composed-tool';
import { compileParameterSchema } from './parameter-schema';
import { placeholdersOf, type Placeholder, type Template } from './placeholders';
import type { FieldPath, FieldProblem } from './problem';
import { urlTemplateShape, type UrlRegion, type UrlTemplateShape } from './url-template';

/** Where a template's text ends up, which decides what it may contain. */
type Role = 'url' | 'header' | 'body' | 'response' | 'delegate-args';

interface PlacedTemplate {
  template: Template;
  role: Role;
}

/**
 * Every check a composed tool gets at load time, beyond its file's shape: parameters, placeholders,
 * where secrets may go, hosts, headers. Checks that span tools (names, cycles) are in tool-set.ts.
 */
export function validateComposedTool(tool: ComposedTool): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const parameterNames = checkParameters(tool, problems);
  const implementation = tool.implementation;
  const placed = placedTemplates(implementation);
  const sendsSecrets = usesSecrets(placed);
  const urlShape = isHttpCall(implementation) ? urlTemplateShape(implementation.url) : null;
  const baseSetting = isHttpCall(implementation) ? baseUrlSetting(implementation.url) : null;
  const credentials = new Set(
    placed
      .filter(({ role }) => role === 'header' || role === 'body')
      .flatMap(({ template }) => placeholdersOf(template))
      .flatMap((placeholder) =>
        placeholder.kind === 'config' || placeholder.kind === 'secret' ? [placeholder.name] : [],
      ),
  );

  for (const { template, role } of placed)
    for (const placeholder of placeholdersOf(template)) {
      const message = checkPlaceholder(placeholder, role, {
        tool,
        parameterNames,
        sendsSecrets,
        region: urlShape?.regions.get(placeholder),
        baseSetting,
        credentials,
      });
      if (message) problems.push({ path: template.path, message });
    }

  if (!isHttpCall(implementation)) checkDelegation(tool, implementation, problems);
  else if (urlShape) checkHttpCall(tool, implementation, urlShape, problems);
  return problems;
}

function placedTemplates(implementation: HttpCall | Delegation): PlacedTemplate[] {
  if (!isHttpCall(implementation))
    return jsonTemplates(implementation.args).map((template) => ({ template, role: 'delegate-args' }));
  const placed: PlacedTemplate[] = [
    { template: implementation.url, role: 'url' },
    ...implementation.headers.map((header) => ({ template: header.value, role: 'header' as const })),
  ];
  if (implementation.body)
    placed.push(
      ...bodyTemplates(implementation.body).map((template) => ({ template, role: 'body' as const })),
    );
  for (const template of [implementation.summary, implementation.errorTemplate])
    if (template) placed.push({ template, role: 'response' });
  return placed;
}

/**
 * True when the tool sends secrets: AgentClash `${secrets.*}` anywhere, or OpenClaw settings in
 * headers or the body (where credentials go). Settings in the URL are configuration, such as a
 * base URL. Such a tool's host must never come from the caller.
 */
export function sendsSecrets(tool: ComposedTool): boolean {
  return usesSecrets(placedTemplates(tool.implementation));
}

function usesSecrets(placed: readonly PlacedTemplate[]): boolean {
  return placed.some(({ template, role }) =>
    placeholdersOf(template).some(
      (placeholder) =>
        placeholder.kind === 'secret' ||
        (placeholder.kind === 'config' && (role === 'header' || role === 'body')),
    ),
  );
}

/** The names a template may use as `${name}` / `{{params.name}}`: the schema's top-level properties. */
function checkParameters(tool: ComposedTool, problems: FieldProblem[]): string[] {
  const path = [...tool.source.path, 'parameters'];
  const schema = tool.parameters;
  if (schema.type !== 'object') {
    problems.push({
      path,
      message: 'must be a JSON Schema with type: object at the top (the tool takes named arguments)',
    });
    return [];
  }
  const compiled = compileParameterSchema(schema);
  if (!compiled.ok) {
    problems.push({ path, message: `is not a valid JSON Schema: ${compiled.error}` });
    return [];
  }
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  for (const [name, property] of Object.entries(properties as Record<string, unknown>))
    checkDefault(property, [...path, ...(tool.dialect === 'openclaw' ? [] : ['properties']), name], problems);
  return Object.keys(properties);
}

/** A default must satisfy its own schema (ajv fills defaults in without checking them). */
function checkDefault(property: unknown, path: FieldPath, problems: FieldProblem[]): void {
  if (typeof property !== 'object' || property === null || !('default' in property)) return;
  const { default: fallback, ...rest } = property as Record<string, unknown>;
  const compiled = compileParameterSchema(rest);
  if (compiled.ok && !compiled.value(structuredClone(fallback)))
    problems.push({
      path: [...path, 'default'],
      message: `${JSON.stringify(fallback)} does not fit the parameter: ${(compiled.value.errors ?? []).map((error) => error.message).join(', ')}`,
    });
}

interface PlaceholderScope {
  tool: ComposedTool;
  parameterNames: readonly string[];
  sendsSecrets: boolean;
  region: UrlRegion | undefined;
  /** The setting that stands alone at the very start of the URL, as its whole base (scheme, host, port). */
  baseSetting: Placeholder | null;
  /** Settings and secrets sent in a header or the body. */
  credentials: ReadonlySet<string>;
}

/** `{{env.BASE}}` alone at the start of a URL, followed by nothing or by a path: the only setting a URL may hold. */
export function baseUrlSetting(url: Template): Placeholder | null {
  const [first, second] = url.segments;
  if (first?.kind !== 'config') return null;
  return second === undefined || (second.kind === 'text' && second.text.startsWith('/')) ? first : null;
}

const REGION_NAMES: Record<UrlRegion, string> = {
  authority: 'scheme or host',
  path: 'path',
  query: 'query',
  fragment: 'fragment',
};

function checkPlaceholder(placeholder: Placeholder, role: Role, scope: PlaceholderScope): string | null {
  const { tool } = scope;
  if (placeholder.kind === 'secret' || placeholder.kind === 'config') {
    const badName = secretNameProblem(placeholder.name);
    if (badName) return `${placeholder.source}: ${badName}`;
  }
  switch (placeholder.kind) {
    case 'param': {
      const root = placeholder.path[0] ?? '';
      if (!scope.parameterNames.includes(root)) {
        const declared =
          scope.parameterNames.length > 0
            ? `declared: ${scope.parameterNames.join(', ')}`
            : 'the tool declares no parameters';
        return `unknown placeholder ${placeholder.source}: there is no parameter named '${root}' (${declared})`;
      }
      if (role === 'url' && scope.region === 'authority' && scope.sendsSecrets)
        return `${placeholder.source} lets the caller choose the host, but this tool sends secrets; the scheme and host must be written literally (or come from a setting) so secrets only go where the tool says`;
      return null;
    }
    case 'arguments':
      if (role === 'url' && scope.region === 'authority' && scope.sendsSecrets)
        return `${placeholder.source} lets the caller choose the host, but this tool sends secrets; write the scheme and host literally`;
      return role === 'response' ? `${placeholder.source} cannot be used in a response template` : null;
    case 'response':
      return role === 'response'
        ? null
        : `${placeholder.source} reads the response, so it can only be used in response.summary and response.error_template`;
    case 'config':
      if (role === 'response')
        return `${placeholder.source} cannot be used in a response template: the text goes back to the model, and settings may be secrets`;
      if (role !== 'url') return null;
      if (placeholder !== scope.baseSetting)
        return `${placeholder.source} puts a setting in the URL's ${REGION_NAMES[scope.region ?? 'authority']}, where servers log it and redirects carry it on; settings and secrets go only in the headers or the body (a whole base URL may come from a setting, alone at the very start: {{env.BASE_URL}}/path)`;
      if (scope.credentials.has(placeholder.name))
        return `${placeholder.source} is also sent as a credential (in a header or the body), so it cannot be the base of the URL; write the scheme and host literally`;
      return null;
    case 'secret':
      if (tool.implementation.primitive !== HTTP_REQUEST)
        return `${placeholder.source}: secrets can only be sent through http_request headers or body, not passed to ${tool.implementation.primitive}`;
      if (role === 'url')
        return `${placeholder.source} puts a secret in the URL, where servers log it and responses echo it; send it in a header instead`;
      return null;
  }
}

function checkHttpCall(
  tool: ComposedTool,
  call: HttpCall,
  shape: UrlTemplateShape,
  problems: FieldProblem[],
): void {
  const urlPath = call.url.path;
  const first = call.url.segments[0];
  if (first?.kind === 'text') {
    if (shape.literalScheme !== 'http' && shape.literalScheme !== 'https')
      problems.push({
        path: urlPath,
        message: shape.literalScheme
          ? `the scheme ${shape.literalScheme}: is not allowed; use http:// or https://`
          : 'must start with http:// or https:// (or with a setting that holds the base URL)',
      });
    const hostIsLiteral = ![...shape.regions.values()].includes('authority');
    if (hostIsLiteral && !shape.literalOrigin)
      problems.push({ path: urlPath, message: 'is not a valid URL: its host cannot be read' });
    if (shape.literalOrigin && (shape.literalOrigin.username !== '' || shape.literalOrigin.password !== ''))
      problems.push({
        path: urlPath,
        message: 'must not hold a user name or password; send credentials in a header',
      });
  }
  checkAllowedHosts(tool, call, shape, problems);
  checkHeaderTemplates(call, problems);
  call.requiresEnv.forEach((name, index) => {
    const problem = secretNameProblem(name);
    if (problem) problems.push({ path: [...tool.source.path, 'requires_env', index], message: problem });
  });
  if (call.body && (call.method === 'GET' || call.method === 'HEAD'))
    problems.push({
      path: methodPath(tool),
      message: `a ${call.method} request cannot have a body; use POST, PUT or PATCH`,
    });
}

function methodPath(tool: ComposedTool): FieldPath {
  return tool.dialect === 'openclaw'
    ? [...tool.source.path, 'request', 'method']
    : [...tool.source.path, 'implementation', 'args', 'method'];
}

function checkAllowedHosts(
  tool: ComposedTool,
  call: HttpCall,
  shape: UrlTemplateShape,
  problems: FieldProblem[],
): void {
  if (call.allowedHosts === 'any') return;
  const path = [...tool.source.path, 'allowed_hosts'];
  const parsed = parseHostPatterns(call.allowedHosts);
  if (!parsed.ok) {
    for (const issue of parsed.error)
      problems.push({
        path: [...path, issue.index],
        message: `${JSON.stringify(issue.pattern)}: ${issue.message}`,
      });
    return;
  }
  const origin = shape.literalOrigin;
  if (!origin) return;
  const port = origin.port === '' ? (origin.protocol === 'https:' ? 443 : 80) : Number(origin.port);
  if (!matchesAnyHostPattern(parsed.value, normalizeHost(origin.hostname), port))
    problems.push({
      path: call.url.path,
      message: `the host ${origin.host} is not in allowed_hosts (${call.allowedHosts.join(', ')}); the request would always be refused`,
    });
}

/**
 * Header names and the literal text of header values, checked by the same rules the network
 * primitive applies, so a bad header is reported when the file loads rather than on every call.
 */
function checkHeaderTemplates(call: HttpCall, problems: FieldProblem[]): void {
  const seen = new Set<string>();
  for (const header of call.headers) {
    const key = header.name.toLowerCase();
    if (seen.has(key))
      problems.push({
        path: header.value.path,
        message: `the header ${header.name} is given twice (names ignore case)`,
      });
    seen.add(key);
    const literal = header.value.segments
      .map((segment) => (segment.kind === 'text' ? segment.text : 'x'))
      .join('');
    const checked = checkHeaders({ [header.name]: literal });
    if (!checked.ok) problems.push({ path: header.value.path, message: checked.error.message });
  }
}

function checkDelegation(tool: ComposedTool, delegation: Delegation, problems: FieldProblem[]): void {
  if (delegation.primitive === tool.name)
    problems.push({
      path: [...tool.source.path, 'implementation', 'primitive'],
      message: `the tool ${tool.name} calls itself; name a primitive such as http_request or another tool`,
    });
}
