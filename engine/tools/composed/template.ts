import type { Result } from '../../api/result';
import type { BodyTemplate, HttpCall, JsonTemplate, NamedTemplate } from './composed-tool';
import { solePlaceholder, type Placeholder, type Template } from './placeholders';
import { formatFieldPath } from './problem';
import { regionAfter } from './url-template';

/**
 * The one renderer for both dialects. It walks a template's parsed segments once and appends each
 * value encoded for the place it lands in; a value is never scanned again, so an argument holding
 * `{{env.X}}` or `${secrets.X}` is sent as that literal text. Errors name the placeholder and the
 * field, never the value (it may be a secret).
 */

export interface RenderScope {
  /** The tool's arguments, already checked against its schema and with defaults filled in. */
  args: Readonly<Record<string, unknown>>;
  /** Secrets and settings by name. */
  lookup: (name: string) => string | undefined;
  /** The response's top-level fields, for response templates. */
  response?: Readonly<Record<string, unknown>>;
  /** Collects every secret or setting value placed in a header or body, to be redacted from results. */
  sensitive: Set<string>;
}

/** What was rendered, or why it cannot be. */
export type Rendered<T> = Result<T, string>;

export interface RenderedRequest {
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The request an HTTP tool sends for these arguments, or why it cannot be sent. */
export function renderHttpRequest(
  call: HttpCall,
  scope: RenderScope,
  options: { hostFixed: boolean },
): Rendered<RenderedRequest> {
  return rendered(() => {
    const url = renderUrl(call.url, scope, options);
    const headers = renderHeaders(call.headers, scope);
    if (!call.body) return { url, headers, body: undefined };
    const body = renderBody(call.body, scope);
    const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
    return {
      url,
      headers: hasContentType ? headers : { ...headers, 'Content-Type': CONTENT_TYPES[call.body.type] },
      body,
    };
  });
}

/** The arguments a composed tool passes to the tool it delegates to. */
export function renderArguments(args: JsonTemplate, scope: RenderScope): Rendered<unknown> {
  return rendered(() => renderJson(args, scope) ?? {});
}

/** An OpenClaw summary or error text. */
export function renderResponseText(template: Template, scope: RenderScope): Rendered<string> {
  return rendered(() => renderText(template, scope, 'response'));
}

const CONTENT_TYPES: Record<BodyTemplate['type'], string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  text: 'text/plain; charset=utf-8',
};

function renderBody(body: BodyTemplate, scope: RenderScope): string {
  switch (body.type) {
    case 'json':
      return JSON.stringify(renderJson(body.content, scope) ?? null);
    case 'form':
      return renderForm(body.fields, scope);
    case 'text':
      return renderText(body.content, scope, 'body');
  }
}

/** Thrown inside this module only; every export turns it into a Rendered value. */
class RenderError extends Error {}

function rendered<T>(render: () => T): Rendered<T> {
  try {
    return { ok: true, value: render() };
  } catch (error) {
    if (error instanceof RenderError) return { ok: false, error: error.message };
    throw error;
  }
}

const where = (template: Template): string => formatFieldPath(template.path);

function argumentValue(
  placeholder: Placeholder & { kind: 'param' },
  args: Readonly<Record<string, unknown>>,
): unknown {
  let value: unknown = args;
  for (const key of placeholder.path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

function settingValue(
  placeholder: Placeholder & { kind: 'secret' | 'config' },
  template: Template,
  scope: RenderScope,
): string {
  const value = scope.lookup(placeholder.name);
  if (value === undefined || value === '')
    throw new RenderError(
      `${where(template)}: ${placeholder.source} is not set; fill in ${placeholder.name} in the connector settings`,
    );
  return value;
}

/** Text for a value placed inside a string: absent and null are empty, other non-strings are JSON. */
function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Percent-encodes everything but unreserved characters (RFC 3986), so a value stays one path segment or query value. */
function encodeComponent(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A value with the tool author's explicit encoding (`${json:x}`, `${query:x}`, `${path:x}`) applied. */
function encodedText(placeholder: Placeholder, value: unknown): string {
  if (placeholder.kind !== 'param' && placeholder.kind !== 'arguments') return asText(value);
  switch (placeholder.encoding) {
    case 'json':
      return JSON.stringify(value ?? null);
    case 'query':
    case 'path':
      return encodeComponent(asText(value));
    case 'auto':
      return asText(value);
  }
}

/** The raw value of a placeholder (not yet text), or a RenderError if it cannot be used here. */
function valueOf(placeholder: Placeholder, template: Template, scope: RenderScope, context: string): unknown {
  switch (placeholder.kind) {
    case 'param':
      return argumentValue(placeholder, scope.args);
    case 'arguments':
      return scope.args;
    case 'secret':
    case 'config': {
      const value = settingValue(placeholder, template, scope);
      if (context !== 'response') scope.sensitive.add(value);
      return value;
    }
    case 'response':
      if (!scope.response)
        throw new RenderError(
          `${where(template)}: ${placeholder.source} is only available in response templates`,
        );
      return Object.hasOwn(scope.response, placeholder.key) ? scope.response[placeholder.key] : undefined;
  }
}

const describe = (placeholder: Placeholder): string =>
  placeholder.kind === 'param'
    ? `argument '${placeholder.path.join('.')}'`
    : placeholder.kind === 'secret'
      ? `secret ${placeholder.name}`
      : placeholder.kind === 'config'
        ? `setting ${placeholder.name}`
        : placeholder.source;

/** Plain text: summaries, error texts, text bodies and form fields. No encoding beyond the author's. */
function renderText(template: Template, scope: RenderScope, context: 'body' | 'response' = 'body'): string {
  let text = '';
  for (const segment of template.segments)
    text +=
      segment.kind === 'text'
        ? segment.text
        : encodedText(segment, valueOf(segment, template, scope, context));
  return text;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const LINE_BREAK_OR_CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/**
 * A header value. A value with a line break, NUL or other control character is refused: it could
 * only have been meant to end the header and start another. A header that is exactly one argument
 * the caller left out is not sent (null).
 */
function renderHeaderValue(template: Template, scope: RenderScope): string | null {
  const sole = solePlaceholder(template);
  if (sole?.kind === 'param' && argumentValue(sole, scope.args) === undefined) return null;
  let text = '';
  for (const segment of template.segments) {
    if (segment.kind === 'text') {
      text += segment.text;
      continue;
    }
    const piece = encodedText(segment, valueOf(segment, template, scope, 'header'));
    if (LINE_BREAK_OR_CONTROL.test(piece))
      throw new RenderError(
        `${where(template)}: the ${describe(segment)} contains a line break or control character, which a header value cannot hold; nothing was sent`,
      );
    text += piece;
  }
  return text;
}

function renderHeaders(headers: readonly NamedTemplate[], scope: RenderScope): Record<string, string> {
  const rendered: Record<string, string> = {};
  for (const header of headers) {
    const value = renderHeaderValue(header.value, scope);
    if (value !== null) rendered[header.name] = value;
  }
  return rendered;
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_IN_URL = /[\s\u0000-\u001f\u007f]/;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

interface ArgumentSpan {
  start: number;
  end: number;
  placeholder: Placeholder;
}

/**
 * A URL. Arguments in the path, query or fragment are percent-encoded as one component, so `/`,
 * `?`, `&`, `#` and `=` in a value stay data. An argument before the host is complete (a tool that
 * takes its URL or host from the caller) is inserted as given, but never when the tool sends
 * secrets (`hostFixed`). The one setting a URL may hold (see baseUrlSetting) is the user's base URL:
 * it must be only a scheme, host and port, and like every value sent it is redacted from the result.
 */
function renderUrl(template: Template, scope: RenderScope, options: { hostFixed: boolean }): string {
  let url = '';
  const spans: ArgumentSpan[] = [];
  for (const segment of template.segments) {
    if (segment.kind === 'text') {
      url += segment.text;
      continue;
    }
    if (segment.kind === 'secret')
      throw new RenderError(`${where(template)}: ${segment.source} would put a secret in the URL`);
    const value = valueOf(segment, template, scope, 'url');
    if (segment.kind === 'config') {
      if (url !== '' || !isBareOrigin(value as string))
        throw new RenderError(
          `${where(template)}: the setting ${segment.name} must be only a scheme, host and port (such as https://api.example.com), because it is the base of the URL; nothing was sent`,
        );
      url += (value as string).replace(/\/$/, '');
      continue;
    }
    const region = regionAfter(url);
    let piece: string;
    if (region === 'authority') {
      if (options.hostFixed)
        throw new RenderError(
          `${where(template)}: ${segment.source} would decide the host of a request that carries secrets`,
        );
      piece = encodedText(segment, value);
      if (UNSAFE_IN_URL.test(piece))
        throw new RenderError(
          `${where(template)}: the ${describe(segment)} contains spaces or control characters, so it cannot be part of a URL`,
        );
    } else
      piece =
        segment.kind === 'param' && segment.encoding === 'json'
          ? encodeComponent(JSON.stringify(value ?? null))
          : encodeComponent(asText(value));
    spans.push({ start: url.length, end: url.length + piece.length, placeholder: segment });
    url += piece;
  }
  refuseDotSegments(url, spans, template);
  return url;
}

/** `http(s)://host[:port]` and nothing else (a trailing `/` allowed): what a base URL setting may hold. */
export function isBareOrigin(value: string): boolean {
  if (UNSAFE_IN_URL.test(value) || !/^https?:\/\/[^/?#\\@]+\/?$/i.test(value)) return false;
  try {
    const parsed = new URL(value);
    return (
      parsed.username === '' &&
      parsed.password === '' &&
      parsed.pathname === '/' &&
      parsed.search === '' &&
      parsed.hash === ''
    );
  } catch {
    return false;
  }
}

/**
 * `.` and `..` path segments (in any percent-encoded spelling) are removed by URL parsing and climb
 * out of the path the author wrote; an argument may not form one.
 */
function refuseDotSegments(url: string, spans: readonly ArgumentSpan[], template: Template): void {
  if (spans.length === 0) return;
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*/i.exec(url);
  if (!origin) return;
  const pathEnd = url.slice(origin[0].length).search(/[?#]/);
  const path = url.slice(origin[0].length, pathEnd < 0 ? url.length : origin[0].length + pathEnd);
  let offset = origin[0].length;
  for (const part of path.split(/[/\\]/)) {
    const start = offset;
    const end = offset + part.length;
    offset = end + 1;
    if (!DOT_SEGMENT.test(part)) continue;
    const culprit = spans.find((span) => span.start < end && span.end > start);
    if (culprit)
      throw new RenderError(
        `${where(template)}: the ${describe(culprit.placeholder)} would make the URL path segment '${part}', which climbs out of the path; nothing was sent`,
      );
  }
}

/**
 * A JSON value from a YAML tree. A string that is exactly one placeholder keeps the value's JSON
 * type (numbers stay numbers); an argument the caller left out drops its key (null in a list).
 * Everything else becomes a string, escaped by JSON.stringify when the body is serialised.
 */
function renderJson(node: JsonTemplate, scope: RenderScope): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'array':
      return node.items.map((item) => renderJson(item, scope) ?? null);
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const [key, value] of node.entries) {
        const rendered = renderJson(value, scope);
        if (rendered !== undefined) object[key] = rendered;
      }
      return object;
    }
    case 'string': {
      const sole = solePlaceholder(node.template);
      if (sole && (sole.kind === 'param' || sole.kind === 'arguments') && sole.encoding === 'auto') {
        const value = valueOf(sole, node.template, scope, 'body');
        return value === undefined ? undefined : structuredClone(value);
      }
      return renderText(node.template, scope, 'body');
    }
  }
}

/** `application/x-www-form-urlencoded` fields; a field that is exactly one left-out argument is not sent. */
function renderForm(fields: readonly NamedTemplate[], scope: RenderScope): string {
  const form = new URLSearchParams();
  for (const field of fields) {
    const sole = solePlaceholder(field.value);
    if (sole?.kind === 'param' && argumentValue(sole, scope.args) === undefined) continue;
    form.append(field.name, renderText(field.value, scope, 'body'));
  }
  return form.toString();
}
