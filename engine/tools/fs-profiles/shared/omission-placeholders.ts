const OMISSION_PHRASES = new Set([
  'rest of',
  'rest of method',
  'rest of methods',
  'rest of code',
  'unchanged code',
  'unchanged method',
  'unchanged methods',
]);

/**
 * Lines that stand for text the model left out instead of writing it, as gemini-cli detects them: a
 * line that is only (after an optional `//`, `#`, `--`, `/* *\/` or parentheses) one of a few phrases
 * followed by `...`, such as `// rest of methods ...` or `(unchanged code ...)`. Returns each one found,
 * normalized (e.g. `rest of methods ...`).
 */
export function omissionPlaceholders(text: string): string[] {
  return text.split(/\r?\n/).flatMap((line) => {
    const found = placeholderIn(line);
    return found === null ? [] : [found];
  });
}

function placeholderIn(line: string): string | null {
  let text = line.trim();
  for (const marker of ['//', '#', '--'])
    if (text.startsWith(marker)) text = text.slice(marker.length).trim();
  if (text.startsWith('/*') && text.endsWith('*/')) text = text.slice(2, -2).trim();
  if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1).trim();
  const ellipsis = text.indexOf('...');
  if (ellipsis < 0) return null;
  const phrase = text
    .slice(0, ellipsis)
    .trim()
    .toLowerCase()
    .split(/[ \t]+/)
    .join(' ');
  const after = text.slice(ellipsis + 3).trim();
  if (!OMISSION_PHRASES.has(phrase) || !/^\.*$/.test(after)) return null;
  return `${phrase} ...`;
}
