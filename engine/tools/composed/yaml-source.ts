import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Result } from '../../api/result';
import type { FieldPath } from './problem';

export interface Position {
  line: number;
  column: number;
}

export interface YamlSource {
  value: unknown;
  /** Where a field is written: its key for a mapping entry, the item for a list entry; the nearest existing parent otherwise. */
  locate(path: FieldPath): Position | undefined;
}

export interface YamlProblem extends Partial<Position> {
  message: string;
}

/** The parsed document, or its problems. */
export type YamlParse = Result<YamlSource, YamlProblem[]>;

/** Parses one YAML document strictly: duplicate keys, several documents and unknown tags are errors. */
export function parseYamlSource(text: string): YamlParse {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const position = (offset: number | undefined): Partial<Position> => {
    if (offset === undefined) return {};
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const [first, ...later] = [...document.errors, ...document.warnings];
  if (first) {
    // Errors after the first usually follow from it; one precise message helps more than a cascade.
    const more =
      later.length > 0
        ? ` (and ${later.length} more YAML ${later.length === 1 ? 'problem' : 'problems'} after it)`
        : '';
    return {
      ok: false,
      error: [{ message: `YAML: ${firstLine(first.message)}${more}`, ...position(first.pos[0]) }],
    };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return {
      ok: false,
      error: [{ message: `YAML: ${firstLine(error instanceof Error ? error.message : String(error))}` }],
    };
  }
  return {
    ok: true,
    value: {
      value,
      locate: (path) => {
        const offset = offsetOf(document.contents, path);
        return offset === undefined ? undefined : (position(offset) as Position);
      },
    },
  };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

function offsetOf(root: unknown, path: FieldPath): number | undefined {
  let node = root as Node | null | undefined;
  let offset = node?.range?.[0];
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => String(isScalar(item.key) ? item.key.value : item.key) === String(key),
      );
      if (!pair) return offset;
      offset = (pair.key as Node | null)?.range?.[0] ?? offset;
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key] as Node | undefined;
      if (!item) return offset;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else return offset;
  }
  return offset;
}
