/**
 * Indents JSON text without parsing it into objects, so the detail pane shows keys in their stored
 * order (JSON.parse moves integer-like keys first), numbers with every digit, and every field kept.
 * Text that is not JSON comes back unchanged apart from indentation of its brackets.
 */
export function formatJsonText(json: string, indent = '  '): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${indent.repeat(depth)}`;

  for (let index = 0; index < json.length; index++) {
    const char = json[index]!;
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    switch (char) {
      case '"':
        inString = true;
        out += char;
        break;
      case '{':
      case '[': {
        const close = char === '{' ? '}' : ']';
        const next = nextSignificant(json, index + 1);
        if (json[next] === close) {
          out += char + close;
          index = next;
        } else {
          depth++;
          out += char + newline();
        }
        break;
      }
      case '}':
      case ']':
        depth = Math.max(0, depth - 1);
        out += newline() + char;
        break;
      case ',':
        out += char + newline();
        break;
      case ':':
        out += ': ';
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      default:
        out += char;
    }
  }
  return out;
}

function nextSignificant(text: string, from: number): number {
  let index = from;
  while (index < text.length && /\s/.test(text[index]!)) index++;
  return index;
}
