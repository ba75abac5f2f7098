import type { Result, ResultWith } from '../api/result';
import { lineAndColumn } from './json-text';
import {
  childAt,
  deepestNodeOn,
  findMember,
  nodeValue,
  parseJsonTree,
  type JsonContainerNode,
  type JsonNode,
  type JsonPath,
} from './json-tree';
import {
  detectJsonStyle,
  formatJsonValue,
  lineIndentAt,
  quoteJsonString,
  type JsonStyle,
} from './json-style';

/**
 * A text-preserving JSON editor: it rewrites only the spans of the values an edit changes, so key
 * order, spacing, escapes, number spellings and unknown fields everywhere else stay byte-identical.
 * Setting a value that equals what is there (as JSON data) changes nothing; setting an object or
 * array is applied as the smallest set of member and item changes that yields it.
 */
export type JsonEdit = { path: JsonPath; value: unknown } | { path: JsonPath; remove: true };

export interface JsonEditError {
  message: string;
  path: JsonPath;
  line?: number;
  column?: number;
}

/** The edited text under `value`; `changed` says whether it differs from what was edited. */
export type JsonEditResult = ResultWith<string, JsonEditError, { changed: boolean }>;

/** Applies `edits` in order. Removing something that is not there is not an error. */
export function editJsonText(text: string, edits: readonly JsonEdit[]): JsonEditResult {
  const batched = replaceAllAtOnce(text, edits);
  if (batched) return batched;
  let current = text;
  for (const edit of edits) {
    const steps = planEdit(current, edit);
    if (!steps.ok) return steps;
    for (const step of steps.value) {
      const applied = applyStep(current, step);
      if (!applied.ok) return applied;
      current = applied.value;
    }
  }
  return { ok: true, value: current, changed: current !== text };
}

type Step =
  | { op: 'replace'; path: JsonPath; value: unknown }
  | { op: 'remove'; path: JsonPath }
  | { op: 'add-member'; path: JsonPath; value: unknown }
  | { op: 'insert-item'; path: JsonPath; value: unknown };

type Planned = Result<Step[], JsonEditError>;
type Applied = Result<string, JsonEditError>;

/**
 * Edits that replace distinct existing values or add members to non-empty objects (credits.json after
 * every tick: one balance per agent, and an entry per new agent) are planned and applied from a
 * single parse instead of one parse per edit. Anything else (removals, list items, overlapping
 * targets) returns null and takes the general path.
 */
function replaceAllAtOnce(text: string, edits: readonly JsonEdit[]): JsonEditResult | null {
  if (edits.length < 2) return null;
  const tree = parseJsonTree(text);
  if (!tree.ok) return null;
  const { root } = tree;
  const style = detectJsonStyle(text, root);
  const replacements: { start: number; end: number; text: () => string }[] = [];
  const additions = new Map<
    string,
    { object: JsonContainerNode & { kind: 'object' }; objectPath: JsonPath; key: string; value: unknown }
  >();
  for (const edit of edits) {
    const planned = planEditOn(text, root, edit);
    if (!planned.ok) return null;
    for (const step of planned.value) {
      const parent = step.path.length
        ? (deepestNodeOn(root, step.path.slice(0, -1)).node as JsonContainerNode)
        : null;
      if (step.op === 'replace') {
        const target = deepestNodeOn(root, step.path).node;
        replacements.push({
          start: target.start,
          end: target.end,
          text: () => formatReplacement(text, style, target, parent, step.value),
        });
      } else if (step.op === 'add-member' && parent?.kind === 'object') {
        const id = JSON.stringify(step.path);
        const earlier = additions.get(id);
        if (earlier && !(isPlainObject(earlier.value) && isPlainObject(step.value))) return null;
        const value = earlier
          ? mergeAdditions(earlier.value as Record<string, unknown>, step.value as Record<string, unknown>)
          : step.value;
        additions.set(id, {
          object: parent,
          objectPath: step.path.slice(0, -1),
          key: step.path.at(-1) as string,
          value,
        });
      } else {
        return null;
      }
    }
  }
  const intoEmpty = new Map<JsonContainerNode, { objectPath: JsonPath; members: Record<string, unknown> }>();
  for (const { object, objectPath, key, value } of additions.values()) {
    if (object.members.length === 0) {
      // An empty object is rewritten whole, as the general path does for its first member.
      intoEmpty.set(object, { objectPath, members: { ...intoEmpty.get(object)?.members, [key]: value } });
      continue;
    }
    const last = object.members.at(-1) as (typeof object.members)[number];
    const separator = entrySeparator(text, style, object);
    const colon = text.slice(last.keyEnd, last.value.start);
    replacements.push({
      start: last.value.end,
      end: last.value.end,
      text: () => separator + quoteJsonString(key, style) + colon + formatValue(style, value, separator),
    });
  }
  for (const [object, { objectPath, members }] of intoEmpty) {
    const parent = objectPath.length
      ? (deepestNodeOn(root, objectPath.slice(0, -1)).node as JsonContainerNode)
      : null;
    replacements.push({
      start: object.start,
      end: object.end,
      text: () => formatReplacement(text, style, object, parent, members),
    });
  }
  // Stable: insertions at one place keep the order their edits came in, after any replacement ending there.
  replacements.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let index = 1; index < replacements.length; index += 1) {
    const previous = replacements[index - 1] as (typeof replacements)[number];
    const current = replacements[index] as (typeof replacements)[number];
    if (
      previous.end > current.start ||
      (previous.start === current.start && previous.end === current.end && previous.end > previous.start)
    )
      return null;
  }
  const parts: string[] = [];
  let position = 0;
  for (const replacement of replacements) {
    parts.push(text.slice(position, replacement.start), replacement.text());
    position = replacement.end;
  }
  parts.push(text.slice(position));
  const edited = parts.join('');
  return { ok: true, value: edited, changed: edited !== text };
}

/** Two additions under one new key, e.g. `m.cfg.base` and `m.cfg.key`: their nested objects combine. */
function mergeAdditions(
  earlier: Record<string, unknown>,
  later: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const existing = merged[key];
    merged[key] = isPlainObject(existing) && isPlainObject(value) ? mergeAdditions(existing, value) : value;
  }
  return merged;
}

function planEdit(text: string, edit: JsonEdit): Planned {
  const tree = parseJsonTree(text);
  if (!tree.ok) return { ok: false, error: { path: [], ...tree.error } };
  return planEditOn(text, tree.root, edit);
}

function planEditOn(text: string, root: JsonNode, edit: JsonEdit): Planned {
  if ('remove' in edit) {
    if (edit.path.length === 0) return failAt(text, root, edit.path, 'cannot remove the whole document');
    const found = walk(root, edit.path);
    if (found.kind === 'mismatch') return failAt(text, root, found.path, found.message);
    return { ok: true, value: found.kind === 'found' ? [{ op: 'remove', path: edit.path }] : [] };
  }

  const invalid = findNonJson(edit.value, []);
  if (invalid) return failAt(text, root, edit.path, `the new value ${invalid}`);

  const found = walk(root, edit.path);
  if (found.kind === 'mismatch') return failAt(text, root, found.path, found.message);
  if (found.kind === 'found') return { ok: true, value: diffSteps(text, found.node, edit.value, edit.path) };

  const here = edit.path.slice(0, found.depth + 1);
  const rest = edit.path.slice(found.depth + 1);
  if (found.parent.kind === 'object') {
    const nested = nestUnder(rest, edit.value);
    if (!nested.ok) return failAt(text, root, here, nested.error);
    return { ok: true, value: [{ op: 'add-member', path: here, value: nested.value }] };
  }
  const length = found.parent.items.length;
  if (here.at(-1) === length && rest.length === 0)
    return { ok: true, value: [{ op: 'insert-item', path: here, value: edit.value }] };
  return failAt(text, root, here, `${describePath(here)} is past the end of a list of ${length}`);
}

type Walked =
  | { kind: 'found'; node: JsonNode }
  | { kind: 'missing'; parent: JsonContainerNode; depth: number }
  | { kind: 'mismatch'; path: JsonPath; message: string };

/** Follows `path` from the root: to its node, to the container where it stops existing, or to a step that cannot apply. */
function walk(root: JsonNode, path: JsonPath): Walked {
  let node = root;
  for (let depth = 0; depth < path.length; depth += 1) {
    const step = path[depth] as string | number;
    const here = path.slice(0, depth + 1);
    if (node.kind === 'scalar')
      return {
        kind: 'mismatch',
        path: here,
        message: `${describePath(path.slice(0, depth))} is not an object or list`,
      };
    if (node.kind === 'object' && typeof step !== 'string') {
      return {
        kind: 'mismatch',
        path: here,
        message: `${describePath(here)}: a field of an object must be named by text`,
      };
    }
    if (node.kind === 'array' && !(typeof step === 'number' && Number.isInteger(step) && step >= 0)) {
      return {
        kind: 'mismatch',
        path: here,
        message: `${describePath(here)}: a list position must be a whole number ≥ 0`,
      };
    }
    const child = childAt(node, step);
    if (!child) return { kind: 'missing', parent: node, depth };
    node = child;
  }
  return { kind: 'found', node };
}

/** The smallest steps that turn `node` into `value`, keeping every untouched member and item. */
function diffSteps(text: string, node: JsonNode, value: unknown, path: JsonPath): Step[] {
  const current = nodeValue(text, node);
  if (jsonEqual(current, value)) return [];

  if (node.kind === 'object' && isPlainObject(value)) {
    const steps: Step[] = [];
    const existingKeys = new Set(node.members.map((member) => member.key));
    for (const key of existingKeys)
      if (!Object.hasOwn(value, key)) steps.push({ op: 'remove', path: [...path, key] });
    for (const [key, child] of Object.entries(value)) {
      const member = findMember(node, key);
      if (member) steps.push(...diffSteps(text, member.value, child, [...path, key]));
      else steps.push({ op: 'add-member', path: [...path, key], value: child });
    }
    return steps;
  }

  if (node.kind === 'array' && Array.isArray(value) && node.items.length > 0) {
    const items = node.items;
    const old = current as unknown[];
    let prefix = 0;
    while (prefix < old.length && prefix < value.length && jsonEqual(old[prefix], value[prefix])) prefix += 1;
    let suffix = 0;
    while (
      suffix < old.length - prefix &&
      suffix < value.length - prefix &&
      jsonEqual(old[old.length - 1 - suffix], value[value.length - 1 - suffix])
    ) {
      suffix += 1;
    }
    const oldMiddle = old.length - prefix - suffix;
    const newMiddle = value.length - prefix - suffix;
    if (oldMiddle === newMiddle) {
      return items
        .slice(prefix, prefix + oldMiddle)
        .flatMap((item, offset) => diffSteps(text, item, value[prefix + offset], [...path, prefix + offset]));
    }
    if (oldMiddle === 0) {
      return value
        .slice(prefix, prefix + newMiddle)
        .map((item, offset) => ({ op: 'insert-item', path: [...path, prefix + offset], value: item }));
    }
    if (newMiddle === 0)
      return Array.from({ length: oldMiddle }, () => ({ op: 'remove', path: [...path, prefix] }));
  }

  return [{ op: 'replace', path, value }];
}

function applyStep(text: string, step: Step): Applied {
  const tree = parseJsonTree(text);
  if (!tree.ok) return { ok: false, error: { path: step.path, ...tree.error } };
  const { root } = tree;
  const style = detectJsonStyle(text, root);
  const parentPath = step.path.slice(0, -1);
  const parent = step.path.length ? (deepestNodeOn(root, parentPath).node as JsonContainerNode) : null;
  const target = deepestNodeOn(root, step.path).node;

  switch (step.op) {
    case 'replace':
      return {
        ok: true,
        value: splice(
          text,
          target.start,
          target.end,
          formatReplacement(text, style, target, parent, step.value),
        ),
      };
    case 'remove': {
      const container = parent as JsonContainerNode;
      const removed = removeEntry(text, container, step.path.at(-1) as string | number);
      const duplicated =
        container.kind === 'object' &&
        container.members.filter((member) => member.key === step.path.at(-1)).length > 1;
      return duplicated ? applyStep(removed, step) : { ok: true, value: removed };
    }
    case 'add-member': {
      const object = parent as JsonContainerNode & { kind: 'object' };
      const key = step.path.at(-1) as string;
      if (object.members.length === 0)
        return applyStep(text, { op: 'replace', path: parentPath, value: { [key]: step.value } });
      const last = object.members.at(-1) as (typeof object.members)[number];
      const separator = entrySeparator(text, style, object);
      const colon = text.slice(last.keyEnd, last.value.start);
      const entry = quoteJsonString(key, style) + colon + formatValue(style, step.value, separator);
      return { ok: true, value: splice(text, last.value.end, last.value.end, separator + entry) };
    }
    case 'insert-item': {
      const array = parent as JsonContainerNode & { kind: 'array' };
      const index = step.path.at(-1) as number;
      if (array.items.length === 0)
        return applyStep(text, { op: 'replace', path: parentPath, value: [step.value] });
      const separator = entrySeparator(text, style, array);
      const item = formatValue(style, step.value, separator);
      const before = array.items[index];
      if (before) return { ok: true, value: splice(text, before.start, before.start, item + separator) };
      const last = array.items.at(-1) as JsonNode;
      return { ok: true, value: splice(text, last.end, last.end, separator + item) };
    }
  }
}

/** Formats a value that follows `separator`: on its own line when the separator breaks the line. */
function formatValue(style: JsonStyle, value: unknown, separator: string): string {
  const lineBreak = separator.lastIndexOf('\n');
  if (lineBreak < 0) return formatJsonValue(value, style, { multiline: false, indent: '' });
  return formatJsonValue(value, style, { multiline: true, indent: separator.slice(lineBreak + 1) });
}

/**
 * A replaced container keeps its layout; an empty or scalar one takes the layout of a non-empty
 * sibling container, else of its parent, so new values look like their neighbours.
 */
function formatReplacement(
  text: string,
  style: JsonStyle,
  target: JsonNode,
  parent: JsonContainerNode | null,
  value: unknown,
): string {
  // Only a container is laid out over lines; finding a line's start is a search back through the text.
  const indent = value !== null && typeof value === 'object' ? lineIndentAt(text, target.start) : '';
  const spansLines = (node: JsonNode) => text.slice(node.start, node.end).includes('\n');
  const hasEntries = (node: JsonNode) =>
    node.kind === 'object' ? node.members.length > 0 : node.kind === 'array' && node.items.length > 0;
  if (hasEntries(target)) return formatJsonValue(value, style, { multiline: spansLines(target), indent });
  if (!parent) return formatJsonValue(value, style, { multiline: true, indent });
  const siblings = parent.kind === 'object' ? parent.members.map((member) => member.value) : parent.items;
  const model = siblings.find((sibling) => sibling !== target && hasEntries(sibling));
  return formatJsonValue(value, style, { multiline: spansLines(model ?? parent), indent });
}

/**
 * The text between two entries of `container` (comma included), reused for a new entry. With a
 * single entry, it is rebuilt from the whitespace before that entry.
 */
function entrySeparator(text: string, style: JsonStyle, container: JsonContainerNode): string {
  const starts =
    container.kind === 'object'
      ? container.members.map((member) => member.keyStart)
      : container.items.map((item) => item.start);
  const ends =
    container.kind === 'object'
      ? container.members.map((member) => member.value.end)
      : container.items.map((item) => item.end);
  const count = starts.length;
  if (count >= 2) return text.slice(ends[count - 2], starts[count - 1]);
  const leading = text.slice(container.start + 1, starts[0]);
  return leading.includes('\n') ? `,${leading}` : style.inlineSeparator;
}

/** Removes the entry that decides `step` (the last one for a duplicated key) with one adjoining comma. */
function removeEntry(text: string, container: JsonContainerNode, step: string | number): string {
  const spans =
    container.kind === 'object'
      ? container.members.map((member) => ({ start: member.keyStart, end: member.value.end }))
      : container.items.map((item) => ({ start: item.start, end: item.end }));
  const index =
    container.kind === 'object'
      ? container.members.findLastIndex((member) => member.key === step)
      : (step as number);
  const span = spans[index] as (typeof spans)[number];
  const previous = spans[index - 1];
  const next = spans[index + 1];
  if (previous) return splice(text, previous.end, span.end, '');
  if (next) return splice(text, span.start, next.start, '');
  return splice(text, container.start + 1, container.end - 1, '');
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

function nestUnder(rest: JsonPath, value: unknown): Result<unknown, string> {
  let nested = value;
  for (let index = rest.length - 1; index >= 0; index -= 1) {
    const step = rest[index] as string | number;
    if (typeof step !== 'string')
      return { ok: false, error: `cannot create list position ${step}: the list does not exist` };
    nested = { [step]: nested };
  }
  return { ok: true, value: nested };
}

function failAt(
  text: string,
  root: JsonNode,
  path: JsonPath,
  message: string,
): Extract<JsonEditResult, { ok: false }> {
  return {
    ok: false,
    error: { message, path, ...lineAndColumn(text, deepestNodeOn(root, path).node.start) },
  };
}

/** `permissions.tools[2]`, or `(document)` for the root. */
export function describePath(path: JsonPath): string {
  if (path.length === 0) return '(document)';
  return path
    .map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`))
    .join('');
}

/** Why `value` cannot be written as JSON, or null when it can. */
function findNonJson(value: unknown, seen: unknown[]): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number')
    return Number.isFinite(value) ? null : `contains ${value}, which JSON cannot hold`;
  if (value === undefined) return 'contains undefined, which JSON cannot hold';
  if (typeof value !== 'object') return `contains a ${typeof value}, which JSON cannot hold`;
  if (seen.includes(value)) return 'contains itself';
  if (!Array.isArray(value) && !isPlainObject(value)) return 'contains an object that is not plain data';
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) {
    const problem = findNonJson(child, [...seen, value]);
    if (problem) return problem;
  }
  return null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Equality of JSON data: key order does not matter, number spelling does not exist. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
    );
  }
  return false;
}
