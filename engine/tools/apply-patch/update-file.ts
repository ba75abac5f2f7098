import type { Result } from '../../api/result';
import { oldLinesOf, type UpdateChunk } from './patch-hunks';
import { lineMatcher, type MatchRung, type SeekSequence } from './seek-sequence';
import { joinSourceText, splitSourceText, type SourceLine, type SourceText } from './source-lines';

export type UpdateOutcome = Result<{ text: string; rungs: MatchRung[] }, string>;

/** A new line of a chunk: a context line points at the old line it keeps, an added line does not. */
interface NewLine {
  text: string;
  keepsOld: number | null;
}

interface Replacement {
  start: number;
  oldLength: number;
  newLines: NewLine[];
}

/**
 * Applies an Update section's chunks to a file's text, with codex-rs's `compute_replacements`: each
 * chunk's `@@` anchors and old lines are sought in order from where the previous chunk ended, through
 * the matching ladder; a chunk whose old lines end in an empty line that cannot be found is retried
 * without it; the result always ends with a newline. Two deliberate differences, both fixes for codex
 * defects: a pure addition after an `@@ anchor` goes right after the anchor (codex appends it at the end
 * of the file, #30946), and a context line keeps the file's own text and ending, so a whitespace- or
 * punctuation-tolerant match does not rewrite unchanged lines (#30505). `shownPath` names the file in
 * errors.
 */
export function updateFileText(
  original: string,
  chunks: readonly UpdateChunk[],
  shownPath: string,
): UpdateOutcome {
  const source = splitSourceText(original);
  const texts = source.lines.map((line) => line.text);
  const seek = lineMatcher(texts);
  const replacements: Replacement[] = [];
  const rungs: MatchRung[] = [];
  let cursor = 0;

  for (const chunk of chunks) {
    for (const context of chunk.contexts) {
      const found = seek([context], cursor, false);
      if (found === null) return { ok: false, error: `Failed to find context '${context}' in ${shownPath}` };
      rungs.push(found.rung);
      cursor = found.start + 1;
    }
    let oldLines = oldLinesOf(chunk);
    let newLines = newLinesOf(chunk);
    if (oldLines.length === 0) {
      replacements.push({ start: pureAdditionPoint(chunk, cursor, texts), oldLength: 0, newLines });
      continue;
    }
    let found = seekAfter(seek, oldLines, cursor, chunk.endOfFile);
    if (found === null && oldLines.at(-1) === '') {
      oldLines = oldLines.slice(0, -1);
      if (newLines.at(-1)?.text === '') newLines = newLines.slice(0, -1);
      newLines = newLines.map((line) =>
        line.keepsOld !== null && line.keepsOld >= oldLines.length ? { ...line, keepsOld: null } : line,
      );
      found = seekAfter(seek, oldLines, cursor, chunk.endOfFile);
    }
    if (found === null) {
      return {
        ok: false,
        error: `Failed to find expected lines in ${shownPath}:\n${oldLinesOf(chunk).join('\n')}`,
      };
    }
    rungs.push(found.rung);
    replacements.push({ start: found.start, oldLength: oldLines.length, newLines });
    cursor = found.start + oldLines.length;
  }

  return { ok: true, value: { text: joinSourceText(applyReplacements(source, replacements)), rungs } };
}

/**
 * An end-of-file match ignores the cursor in codex, so it could land inside an earlier chunk's lines;
 * here it must not, as chunks apply in file order.
 */
function seekAfter(seek: SeekSequence, pattern: readonly string[], cursor: number, endOfFile: boolean) {
  const found = seek(pattern, cursor, endOfFile);
  return found !== null && found.start >= cursor ? found : null;
}

function newLinesOf(chunk: UpdateChunk): NewLine[] {
  const newLines: NewLine[] = [];
  let oldIndex = 0;
  for (const line of chunk.lines) {
    if (line.kind === 'add') newLines.push({ text: line.text, keepsOld: null });
    if (line.kind === 'context') newLines.push({ text: line.text, keepsOld: oldIndex });
    if (line.kind !== 'add') oldIndex += 1;
  }
  return newLines;
}

/** After the last `@@` anchor when there is one; otherwise codex's end of file (before a final empty line). */
function pureAdditionPoint(chunk: UpdateChunk, cursor: number, texts: readonly string[]): number {
  if (chunk.contexts.length > 0) return cursor;
  return texts.at(-1) === '' ? texts.length - 1 : texts.length;
}

function applyReplacements(source: SourceText, replacements: Replacement[]): SourceText {
  const ordered = replacements
    .map((replacement, order) => ({ replacement, order }))
    .sort((a, b) => a.replacement.start - b.replacement.start || a.order - b.order)
    .map(({ replacement }) => replacement);
  const lines: SourceLine[] = [];
  let next = 0;
  for (const { start, oldLength, newLines } of ordered) {
    const from = Math.max(start, next);
    lines.push(...source.lines.slice(next, from));
    for (const line of newLines) {
      const kept = line.keepsOld === null ? undefined : source.lines[from + line.keepsOld];
      lines.push(kept ? { ...kept } : { text: line.text, ending: source.preferredEnding });
    }
    next = Math.max(next, from + oldLength);
  }
  lines.push(...source.lines.slice(next));
  // codex always ends an updated file with a newline; this also ends a formerly last line moved inward.
  return {
    ...source,
    lines: lines.map((line) => (line.ending === null ? { ...line, ending: source.preferredEnding } : line)),
  };
}
