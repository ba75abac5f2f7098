import type { ResultWith } from '../api/result';
import { lineAndColumn, parseJsonText, type JsonSyntaxError } from './json-text';

/**
 * A JSON document as a tree of source spans (offsets into the original text), so that an edit can
 * rewrite only the bytes of the values it changes and locate any field for an error message.
 */
export type JsonPath = readonly (string | number)[];

interface Span {
  start: number;
  end: number;
}

export interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  value: JsonNode;
}

export interface JsonObjectNode extends Span {
  kind: 'object';
  members: JsonMember[];
}

export interface JsonArrayNode extends Span {
  kind: 'array';
  items: JsonNode[];
}

export interface JsonScalarNode extends Span {
  kind: 'scalar';
}

export type JsonNode = JsonObjectNode | JsonArrayNode | JsonScalarNode;
export type JsonContainerNode = JsonObjectNode | JsonArrayNode;

export type JsonTreeResult = ResultWith<unknown, JsonSyntaxError, { root: JsonNode }>;

/** Parses `text` (a leading BOM is allowed) into its value and its span tree. Never throws. */
export function parseJsonTree(text: string): JsonTreeResult {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  return { ok: true, root: scanTree(text), value: parsed.value };
}

/** The value a node spells, as JSON.parse reads it (so duplicate keys resolve to the last one). */
export function nodeValue(text: string, node: JsonNode): unknown {
  return JSON.parse(text.slice(node.start, node.end));
}

/** The member that decides an object's value for `key`: the last one, as in JSON.parse. */
export function findMember(node: JsonObjectNode, key: string): JsonMember | undefined {
  // Small objects are scanned; a big one (credits.json's agents) gets an index on its first lookup, so
  // one edit per agent costs linear time in all, not quadratic. A parsed tree's members never change.
  if (node.members.length < MEMBER_INDEX_MIN) return node.members.findLast((member) => member.key === key);
  let index = memberIndexes.get(node);
  if (!index) {
    index = new Map();
    // The last of duplicate keys wins, as in JSON.parse.
    for (const member of node.members) index.set(member.key, member);
    memberIndexes.set(node, index);
  }
  return index.get(key);
}

const MEMBER_INDEX_MIN = 16;
const memberIndexes = new WeakMap<JsonObjectNode, Map<string, JsonMember>>();

/** The child of a container at one path step, if there is one. */
export function childAt(node: JsonNode, step: string | number): JsonNode | undefined {
  if (node.kind === 'object' && typeof step === 'string') return findMember(node, step)?.value;
  if (node.kind === 'array' && typeof step === 'number') return node.items[step];
  return undefined;
}

/** The deepest node along `path` that exists, and how many steps of the path it covers. */
export function deepestNodeOn(root: JsonNode, path: JsonPath): { node: JsonNode; depth: number } {
  let node = root;
  let depth = 0;
  for (const step of path) {
    const child = childAt(node, step);
    if (!child) break;
    node = child;
    depth += 1;
  }
  return { node, depth };
}

/**
 * Where a field is in the text: the value at `path`, or the nearest enclosing value that exists
 * (a missing field is reported where it would have to be added).
 */
export function locatePath(text: string, root: JsonNode, path: JsonPath): { line: number; column: number } {
  return lineAndColumn(text, deepestNodeOn(root, path).node.start);
}

interface OpenContainer {
  node: JsonContainerNode;
  /** The member key this container is the value of, when its parent is an object. */
  key: KeyToken | null;
}

interface KeyToken {
  key: string;
  keyStart: number;
  keyEnd: number;
}

/**
 * Builds the span tree of text that JSON.parse has already accepted, so it only needs to find
 * boundaries, not to check grammar. Iterative, so nesting depth is bounded by memory, not the stack.
 */
function scanTree(text: string): JsonNode {
  const open: OpenContainer[] = [];
  let pos = skipWhitespace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  let key: KeyToken | null = null;

  for (;;) {
    let completed: JsonNode;
    const opener = text[pos];
    if (opener === '{' || opener === '[') {
      const node: JsonContainerNode =
        opener === '{'
          ? { kind: 'object', start: pos, end: pos, members: [] }
          : { kind: 'array', start: pos, end: pos, items: [] };
      pos = skipWhitespace(text, pos + 1);
      if (text[pos] !== (opener === '{' ? '}' : ']')) {
        open.push({ node, key });
        if (node.kind === 'object') ({ key, pos } = scanKey(text, pos));
        else key = null;
        continue;
      }
      pos += 1;
      node.end = pos;
      completed = node;
    } else {
      const end = scanScalarEnd(text, pos);
      completed = { kind: 'scalar', start: pos, end };
      pos = end;
    }

    for (;;) {
      const parent = open.at(-1);
      if (!parent) return completed;
      attach(parent.node, key, completed);
      pos = skipWhitespace(text, pos);
      if (text[pos] === ',') {
        pos = skipWhitespace(text, pos + 1);
        if (parent.node.kind === 'object') ({ key, pos } = scanKey(text, pos));
        else key = null;
        break;
      }
      pos += 1;
      parent.node.end = pos;
      open.pop();
      completed = parent.node;
      key = parent.key;
    }
  }
}

function attach(parent: JsonContainerNode, key: KeyToken | null, child: JsonNode): void {
  if (parent.kind === 'array') parent.items.push(child);
  else if (key) parent.members.push({ ...key, value: child });
}

function scanKey(text: string, pos: number): { key: KeyToken; pos: number } {
  const keyEnd = scanStringEnd(text, pos);
  const key = JSON.parse(text.slice(pos, keyEnd)) as string;
  const colon = skipWhitespace(text, keyEnd);
  return { key: { key, keyStart: pos, keyEnd }, pos: skipWhitespace(text, colon + 1) };
}

function scanStringEnd(text: string, quote: number): number {
  let pos = quote + 1;
  while (text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
  return pos + 1;
}

function scanScalarEnd(text: string, start: number): number {
  if (text[start] === '"') return scanStringEnd(text, start);
  let pos = start;
  while (pos < text.length && !isDelimiter(text.charCodeAt(pos))) pos += 1;
  return pos;
}

function isDelimiter(code: number): boolean {
  return code === 0x2c || code === 0x5d || code === 0x7d || isWhitespace(code);
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function skipWhitespace(text: string, pos: number): number {
  let at = pos;
  while (at < text.length && isWhitespace(text.charCodeAt(at))) at += 1;
  return at;
}
