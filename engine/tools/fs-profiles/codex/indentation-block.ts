/** codex-rs counts a tab as this many columns of indentation. */
const TAB_WIDTH = 4;
const COMMENT_PREFIXES = ['#', '//', '--'];

export interface IndentationOptions {
  /** 1-based line the block is grown from. */
  anchorLine: number;
  /** Levels (of 4 columns) above the anchor's indentation to include; 0 means no limit. */
  maxLevels: number;
  includeSiblings: boolean;
  /** Keep comment lines just above the block. */
  includeHeader: boolean;
  /** The most lines to return. */
  maxLines: number;
}

export type IndentationBlock = { ok: true; lineIndexes: number[] } | { ok: false; error: string };

/**
 * codex-rs's indentation mode: starting at the anchor line, grows a block up and down one line at a
 * time while lines are indented at least `maxLevels` levels less than the anchor (blank lines count as
 * indented like the line before them). At the shallowest level it takes one line each way (the
 * block's opening and closing lines) unless `includeSiblings`, and going up also takes comment lines
 * when `includeHeader`. Blank lines at both ends are dropped. Returns 0-based line indexes in order.
 */
export function indentationBlock(lines: readonly string[], options: IndentationOptions): IndentationBlock {
  if (lines.length === 0 || options.anchorLine > lines.length)
    return { ok: false, error: 'anchor_line exceeds file length' };
  const anchor = options.anchorLine - 1;
  const indents = effectiveIndents(lines);
  const anchorIndent = indents[anchor] ?? 0;
  const minIndent = options.maxLevels === 0 ? 0 : Math.max(0, anchorIndent - options.maxLevels * TAB_WIDTH);
  const limit = Math.min(options.maxLines, lines.length);
  if (limit === 1) return { ok: true, lineIndexes: [anchor] };

  const block = [anchor];
  let up = anchor - 1;
  let down = anchor + 1;
  let shallowTakenUp = 0;
  let shallowTakenDown = 0;
  while (block.length < limit) {
    let progressed = false;
    if (up >= 0) {
      const indent = indents[up] ?? 0;
      if (indent < minIndent) up = -1;
      else {
        const atShallowest = indent === minIndent && !options.includeSiblings;
        const headerComment = options.includeHeader && isComment(lines[up] ?? '');
        if (atShallowest && !headerComment && shallowTakenUp > 0) up = -1;
        else {
          block.unshift(up);
          progressed = true;
          if (atShallowest) shallowTakenUp += 1;
          up -= 1;
          if (block.length >= limit) break;
        }
      }
    }
    if (down < lines.length) {
      const indent = indents[down] ?? 0;
      if (indent < minIndent) down = lines.length;
      else {
        const atShallowest = indent === minIndent && !options.includeSiblings;
        if (atShallowest && shallowTakenDown > 0) down = lines.length;
        else {
          block.push(down);
          progressed = true;
          if (atShallowest) shallowTakenDown += 1;
          down += 1;
        }
      }
    }
    if (!progressed) break;
  }

  while (block.length > 0 && isBlank(lines[block[0] as number] ?? '')) block.shift();
  while (block.length > 0 && isBlank(lines[block.at(-1) as number] ?? '')) block.pop();
  return { ok: true, lineIndexes: block };
}

function effectiveIndents(lines: readonly string[]): number[] {
  let previous = 0;
  return lines.map((line) => {
    if (!isBlank(line)) previous = measureIndent(line);
    return previous;
  });
}

function measureIndent(line: string): number {
  let columns = 0;
  for (const char of line) {
    if (char === ' ') columns += 1;
    else if (char === '\t') columns += TAB_WIDTH;
    else break;
  }
  return columns;
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function isComment(line: string): boolean {
  const trimmed = line.trim();
  return COMMENT_PREFIXES.some((prefix) => trimmed.startsWith(prefix));
}
