import type { Result } from '../../api/result';
import type { FieldPath, FieldProblem } from './problem';

/**
 * One piece of a template. Both dialects parse into these, so one renderer serves both:
 * AgentClash `${sku}`, `${json:sku}`, `${parameters}`, `${secrets.KEY}`; OpenClaw `{{params.sku}}`,
 * `{{env.KEY}}`, `{{response.id}}`.
 */
export type Segment =
  | { kind: 'text'; text: string }
  /** A tool argument, or a field inside one (`${order.id}`). */
  | { kind: 'param'; path: readonly string[]; encoding: ParamEncoding; source: string }
  /** All arguments at once (AgentClash `${parameters}`). */
  | { kind: 'arguments'; encoding: ParamEncoding; source: string }
  /** AgentClash `${secrets.KEY}`. */
  | { kind: 'secret'; name: string; source: string }
  /** OpenClaw `{{env.KEY}}`: a config value or secret the user set for this connector. */
  | { kind: 'config'; name: string; source: string }
  /** OpenClaw `{{response.key}}`: a top-level field of the response, in response templates only. */
  | { kind: 'response'; key: string; source: string };

export type Placeholder = Exclude<Segment, { kind: 'text' }>;

/** AgentClash's explicit encodings; `auto` lets the place the value lands decide. */
export type ParamEncoding = 'auto' | 'json' | 'query' | 'path';

export type TemplateSyntax = 'dollar' | 'braces';

export interface Template {
  /** Where the template sits in its file, for messages. */
  path: FieldPath;
  source: string;
  segments: readonly Segment[];
}

export const placeholdersOf = (template: Template): Placeholder[] =>
  template.segments.filter((segment): segment is Placeholder => segment.kind !== 'text');

/** True when the template is exactly one placeholder, so its value can keep its JSON type. */
export function solePlaceholder(template: Template): Placeholder | null {
  const [only, ...rest] = template.segments;
  return only !== undefined && rest.length === 0 && only.kind !== 'text' ? only : null;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PATH_PART = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const BRACE_PLACEHOLDER = /^(env|params|response)\.([A-Za-z_][A-Za-z0-9_]*)$/;
/** What an OpenClaw placeholder looks like, to spot one written in an AgentClash file. */
const FOREIGN_BRACES = /\{\{\s*(?:env|params|response|secrets)\.[^}]*\}\}/;
/** What an AgentClash placeholder looks like, to spot one written in an OpenClaw file. */
const FOREIGN_DOLLAR = /\$\{(?:secrets\.|json:|query:|path:)?[A-Za-z_][A-Za-z0-9_.-]*\}/;

/** The template, or every malformed placeholder in it. */
export type TemplateParse = Result<Template, FieldProblem[]>;

/** Splits a string into text and placeholders in one left-to-right scan, reporting every malformed placeholder. */
export function parseTemplate(source: string, syntax: TemplateSyntax, path: FieldPath): TemplateParse {
  const scanned = syntax === 'dollar' ? scanDollar(source) : scanBraces(source);
  const foreign = syntax === 'dollar' ? FOREIGN_BRACES.exec(source) : FOREIGN_DOLLAR.exec(source);
  if (foreign)
    scanned.problems.push(
      syntax === 'dollar'
        ? `${foreign[0]} is OpenClaw syntax; in an AgentClash tool write \${name} for an argument or \${secrets.KEY} for a secret`
        : `${foreign[0]} is AgentClash syntax; in an OpenClaw api-tool write {{params.name}} for an argument or {{env.KEY}} for a setting`,
    );
  if (scanned.problems.length > 0)
    return { ok: false, error: scanned.problems.map((message) => ({ path, message })) };
  return { ok: true, value: { path, source, segments: scanned.segments } };
}

interface Scan {
  segments: Segment[];
  problems: string[];
}

function scanDollar(source: string): Scan {
  return scan(source, '${', '}', (inner, placeholder) => {
    if (inner.trim() === '') return 'empty placeholder ${}; name an argument, as in ${sku}';
    const prefixed = /^(json|query|path):(.*)$/.exec(inner);
    const encoding: ParamEncoding = prefixed ? (prefixed[1] as ParamEncoding) : 'auto';
    const expression = prefixed ? (prefixed[2] ?? '') : inner;
    if (expression === 'parameters') return { kind: 'arguments', encoding, source: placeholder };
    if (expression.startsWith('secrets.')) {
      const name = expression.slice('secrets.'.length);
      if (!IDENTIFIER.test(name))
        return `${placeholder} is not a valid secret reference; write \${secrets.KEY} with KEY made of letters, digits and _`;
      return { kind: 'secret', name, source: placeholder };
    }
    const parts = expression.split('.');
    if (!parts.every((part) => PATH_PART.test(part)))
      return `${placeholder} is not a valid placeholder; write \${name}, \${name.field}, \${json:name}, \${parameters} or \${secrets.KEY}`;
    return { kind: 'param', path: parts, encoding, source: placeholder };
  });
}

function scanBraces(source: string): Scan {
  return scan(source, '{{', '}}', (inner, placeholder) => {
    const match = BRACE_PLACEHOLDER.exec(inner);
    if (match) {
      const [, scope, name] = match as unknown as [string, 'env' | 'params' | 'response', string];
      if (scope === 'params') return { kind: 'param', path: [name], encoding: 'auto', source: placeholder };
      if (scope === 'env') return { kind: 'config', name, source: placeholder };
      return { kind: 'response', key: name, source: placeholder };
    }
    return `unknown placeholder ${placeholder}; ${braceHint(inner)}`;
  });
}

function braceHint(inner: string): string {
  const trimmed = inner.trim();
  if (trimmed !== inner && BRACE_PLACEHOLDER.test(trimmed)) return `write it without spaces: {{${trimmed}}}`;
  if (trimmed.startsWith('secrets.'))
    return `secrets are read with {{env.${trimmed.slice('secrets.'.length)}}}`;
  if (/^(env|params|response)\.[^.]+\./.test(trimmed))
    return 'nested fields are not supported; name one top-level field';
  return 'use {{params.NAME}}, {{env.NAME}} or, in response templates, {{response.NAME}}';
}

function scan(
  source: string,
  open: string,
  close: string,
  interpret: (inner: string, placeholder: string) => Placeholder | string,
): Scan {
  const segments: Segment[] = [];
  const problems: string[] = [];
  let from = 0;
  while (from < source.length) {
    const start = source.indexOf(open, from);
    if (start < 0) break;
    const end = source.indexOf(close, start + open.length);
    if (end < 0) {
      problems.push(
        `unclosed placeholder starting at ${JSON.stringify(source.slice(start, start + 24))}; close it with ${close}`,
      );
      break;
    }
    if (start > from) segments.push({ kind: 'text', text: source.slice(from, start) });
    const placeholder = source.slice(start, end + close.length);
    const interpreted = interpret(source.slice(start + open.length, end), placeholder);
    if (typeof interpreted === 'string') problems.push(interpreted);
    else segments.push(interpreted);
    from = end + close.length;
  }
  if (from < source.length) segments.push({ kind: 'text', text: source.slice(from) });
  return { segments, problems };
}
