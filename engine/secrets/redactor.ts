import { secretSpellings } from './secret-spellings';

export interface NamedSecret {
  name: string;
  value: string;
}

export interface Redactor {
  /** The text with every spelling of every secret replaced by `[redacted:NAME]` (`[redacted]` when unnamed). */
  redactText(text: string): string;
  /**
   * A deep copy with every string redacted, object keys included. It sees what JSON.stringify would:
   * an object with `toJSON` (a Date, a Buffer) is redacted as that JSON, and a number whose digits
   * spell a secret becomes the redaction text.
   */
  redactValue<T>(value: T): T;
  /** Whether the text holds any spelling of any secret. */
  containsSecret(text: string): boolean;
  /** Adds a secret; false when it is too short to be redacted (see MIN_REDACTED_LENGTH). */
  add(secret: string | NamedSecret): boolean;
}

interface Matcher {
  /** Finds the leftmost spelling, longest first. */
  leftmost: RegExp;
  /** The longest spelling starting exactly at `lastIndex`. */
  startingAt: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/**
 * The redactor the engine runs over every event, tool result, file and log line before writing it
 * (docs/ARCHITECTURE.md, “Secrets”). One regular expression over all spellings of all secrets finds them in a single
 * pass; where secrets overlap, the redacted span grows to cover all of them, so no piece of either
 * is left in the text.
 */
export function createRedactor(secrets: Iterable<string | NamedSecret> = []): Redactor {
  const namesBySpelling = new Map<string, Set<string>>();
  let matcher: Matcher | null = null;

  const add = (secret: string | NamedSecret): boolean => {
    const { name, value } = typeof secret === 'string' ? { name: '', value: secret } : secret;
    const spellings = secretSpellings(value);
    for (const spelling of spellings) {
      const names = namesBySpelling.get(spelling) ?? new Set<string>();
      names.add(name);
      namesBySpelling.set(spelling, names);
    }
    if (spellings.length > 0) matcher = null;
    return spellings.length > 0;
  };
  for (const secret of secrets) add(secret);

  const compiled = (): Matcher | null => {
    if (namesBySpelling.size === 0) return null;
    if (matcher) return matcher;
    const source = [...namesBySpelling.keys()]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|');
    matcher = { leftmost: new RegExp(source, 'g'), startingAt: new RegExp(source, 'y') };
    return matcher;
  };

  const redactText = (text: string): string => {
    const found = compiled();
    if (!found) return text;
    const { leftmost, startingAt } = found;
    leftmost.lastIndex = 0;
    let redacted = '';
    let copiedUpTo = 0;
    for (let match = leftmost.exec(text); match !== null; match = leftmost.exec(text)) {
      const start = match.index;
      let end = start + match[0].length;
      const names = new Set(namesBySpelling.get(match[0]));
      for (let position = start + 1; position < end; position += 1) {
        startingAt.lastIndex = position;
        const overlapping = startingAt.exec(text);
        if (overlapping && position + overlapping[0].length > end) {
          end = position + overlapping[0].length;
          for (const name of namesBySpelling.get(overlapping[0]) ?? []) names.add(name);
        }
      }
      redacted += text.slice(copiedUpTo, start) + label(names);
      copiedUpTo = end;
      leftmost.lastIndex = end;
    }
    return copiedUpTo === 0 ? text : redacted + text.slice(copiedUpTo);
  };

  const redactValue = (value: unknown, copies: WeakMap<object, unknown>): unknown => {
    if (typeof value === 'string') return redactText(value);
    if (typeof value === 'number' || typeof value === 'bigint') {
      const digits = String(value);
      const redacted = redactText(digits);
      return redacted === digits ? value : redacted;
    }
    if (typeof value !== 'object' || value === null) return value;
    const known = copies.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const copy: unknown[] = [];
      copies.set(value, copy);
      for (const item of value) copy.push(redactValue(item, copies));
      return copy;
    }
    if (value instanceof Error) {
      const copy = new Error(redactText(value.message));
      copy.name = value.name;
      copy.stack = value.stack === undefined ? undefined : redactText(value.stack);
      copies.set(value, copy);
      return copy;
    }
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
      return redactValue((value as { toJSON(): unknown }).toJSON(), copies);
    const copy: Record<string, unknown> = {};
    copies.set(value, copy);
    for (const [key, item] of Object.entries(value)) copy[redactText(key)] = redactValue(item, copies);
    return copy;
  };

  return {
    redactText,
    redactValue: <T>(value: T) => redactValue(value, new WeakMap()) as T,
    containsSecret(text) {
      const found = compiled();
      if (!found) return false;
      found.leftmost.lastIndex = 0;
      return found.leftmost.test(text);
    },
    add,
  };
}

function label(names: ReadonlySet<string>): string {
  const named = [...names].filter((name) => name !== '').sort();
  return named.length === 0 ? '[redacted]' : `[redacted:${named.join(',')}]`;
}
