import type { JsonNode } from './json-tree';

/** How a document spells its JSON, so values added to it look like what is already there. */
export interface JsonStyle {
  newline: '\n' | '\r\n';
  /** One level of indentation. */
  unit: string;
  /** Between a key and its value, e.g. `": "`. */
  colon: string;
  /** Between entries that share a line, comma included, e.g. `", "`. */
  inlineSeparator: string;
  /**
   * Non-ASCII characters are written as \uXXXX escapes, as Python's json.dump does by default. A
   * document that is all ASCII stays all ASCII, so it reads the same in any encoding Python assumes.
   */
  asciiOnly: boolean;
}

/** LeMMing's files: Python's json.dump with indent=2. */
export const DEFAULT_JSON_STYLE: JsonStyle = {
  newline: '\n',
  unit: '  ',
  colon: ': ',
  inlineSeparator: ', ',
  asciiOnly: true,
};

export function detectJsonStyle(text: string, root: JsonNode): JsonStyle {
  let unit: string | null = null;
  let colon: string | null = null;
  let inlineSeparator: string | null = null;

  const pending: JsonNode[] = [root];
  while (pending.length > 0 && (unit === null || colon === null || inlineSeparator === null)) {
    const node = pending.pop() as JsonNode;
    if (node.kind === 'scalar') continue;
    const entries =
      node.kind === 'object'
        ? node.members.map((member) => ({
            start: member.keyStart,
            end: member.value.end,
            child: member.value,
          }))
        : node.items.map((item) => ({ start: item.start, end: item.end, child: item }));
    const first = entries[0];
    if (!first) continue;

    if (unit === null && text.slice(node.start, first.start).includes('\n')) {
      const outer = lineIndentAt(text, node.start);
      const inner = lineIndentAt(text, first.start);
      if (inner.length > outer.length && inner.startsWith(outer)) unit = inner.slice(outer.length);
    }
    if (colon === null && node.kind === 'object') {
      const member = node.members[0];
      const between = member ? text.slice(member.keyEnd, member.value.start) : '';
      if (member && !between.includes('\n')) colon = between;
    }
    if (inlineSeparator === null) {
      for (let index = 1; index < entries.length; index += 1) {
        const between = text.slice(
          (entries[index - 1] as (typeof entries)[number]).end,
          (entries[index] as (typeof entries)[number]).start,
        );
        if (!between.includes('\n')) {
          inlineSeparator = between;
          break;
        }
      }
    }
    for (let index = entries.length - 1; index >= 0; index -= 1)
      pending.push((entries[index] as (typeof entries)[number]).child);
  }

  return {
    newline: text.includes('\r\n') ? '\r\n' : '\n',
    unit: unit ?? DEFAULT_JSON_STYLE.unit,
    colon: colon ?? DEFAULT_JSON_STYLE.colon,
    inlineSeparator: inlineSeparator ?? DEFAULT_JSON_STYLE.inlineSeparator,
    asciiOnly: !/[\u0080-\uffff]/.test(text.replace(/^\uFEFF/, '')),
  };
}

/** The whitespace that starts the line `offset` is on. */
export function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

export function quoteJsonString(value: string, style: JsonStyle): string {
  const quoted = JSON.stringify(value);
  return style.asciiOnly
    ? quoted.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : quoted;
}

/**
 * Writes a JSON value in `style`. Multi-line output starts at the current position and puts nested
 * entries one `unit` deeper than `indent`, the indentation of the line the value starts on.
 */
export function formatJsonValue(
  value: unknown,
  style: JsonStyle,
  layout: { multiline: boolean; indent: string },
): string {
  if (typeof value === 'string') return quoteJsonString(value, style);
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);

  const isArray = Array.isArray(value);
  const entries: [string | null, unknown][] = isArray
    ? value.map((item) => [null, item])
    : Object.entries(value);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return open + close;

  const inner = layout.multiline ? layout.indent + style.unit : '';
  const parts = entries.map(([key, child]) => {
    const formatted = formatJsonValue(child, style, { multiline: layout.multiline, indent: inner });
    return key === null ? formatted : quoteJsonString(key, style) + style.colon + formatted;
  });
  if (!layout.multiline) return open + parts.join(style.inlineSeparator) + close;
  const lineBreak = style.newline;
  return (
    open +
    lineBreak +
    parts.map((part) => inner + part).join(`,${lineBreak}`) +
    lineBreak +
    layout.indent +
    close
  );
}

/** A whole new document in LeMMing's layout, ending with a newline. */
export function formatJsonDocument(value: unknown): string {
  return (
    formatJsonValue(value, DEFAULT_JSON_STYLE, { multiline: true, indent: '' }) + DEFAULT_JSON_STYLE.newline
  );
}
