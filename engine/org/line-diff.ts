import type { DiffLine } from '../api/org-update-schemas';

/** Past this many lines on either side the texts are shown as wholly replaced (the table would be too big). */
const MAX_DIFFED_LINES = 2000;

/**
 * A line-by-line diff of two texts (a longest common subsequence): what a person reads as "these lines
 * went, these came". Lines common to the start and end are matched first, so a small edit in a long
 * text stays cheap.
 */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const head = a.slice(0, start).map((text): DiffLine => ({ kind: 'same', text }));
  const tail = a.slice(endA).map((text): DiffLine => ({ kind: 'same', text }));
  return [...head, ...diffMiddle(a.slice(start, endA), b.slice(start, endB)), ...tail];
}

function diffMiddle(a: string[], b: string[]): DiffLine[] {
  if (a.length > MAX_DIFFED_LINES || b.length > MAX_DIFFED_LINES)
    return [...a.map((text) => removed(text)), ...b.map((text) => added(text))];
  // common[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      common[i]![j] =
        a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]! });
      i += 1;
      j += 1;
    } else if (common[i + 1]![j]! >= common[i]![j + 1]!) lines.push(removed(a[i++]!));
    else lines.push(added(b[j++]!));
  }
  while (i < a.length) lines.push(removed(a[i++]!));
  while (j < b.length) lines.push(added(b[j++]!));
  return lines;
}

const removed = (text: string): DiffLine => ({ kind: 'removed', text });
const added = (text: string): DiffLine => ({ kind: 'added', text });
