import { cutRedacted, secretPrefixAtEnd, type TakeCharacters } from './cut-redacted';
import { secretSpellings } from './secret-spellings';

export interface NamedSecret {
  name: string;
  value: string;
}

/**
 * The one redaction path of everything that leaves the engine (docs/ARCHITECTURE.md, “Secrets”): whole
 * texts and values, text that must be cut, and text that arrives in pieces.
 */
export interface Redaction {
  /** The text with every spelling of every secret replaced by `[redacted:NAME]` (`[redacted]` when unnamed). */
  redactText(text: string): string;
  /**
   * A deep copy with every string redacted, object keys included. It sees what JSON.stringify would:
   * an object with `toJSON` (a Date, a Buffer) is redacted as that JSON, and a number whose digits
   * spell a secret becomes the redaction text.
   */
  redactValue<T>(value: T): T;
  /**
   * The text redacted, then cut to `limit` characters (as `take` counts them: UTF-16 units unless
   * given), with a secret's first characters left at the cut replaced too.
   */
  cutText(text: string, limit: number, take?: TakeCharacters): string;
  /**
   * Text that was cut before it could be redacted (a byte cap on what a program printed): redacted,
   * and a secret's first characters at its end replaced.
   */
  redactCut(text: string): string;
  /** A redactor for one text that arrives in pieces (a streamed answer). */
  stream(): StreamRedactor;
}

/**
 * Redacts a text that arrives in pieces: it holds back the last `longest spelling − 1` characters (and
 * any secret that reaches into them) until the next piece or the end, so a secret split across pieces
 * is replaced whole.
 */
export interface StreamRedactor {
  /** What can be shown of the text so far, redacted, after what earlier pieces gave. */
  push(piece: string): string;
  /** The rest, redacted, when the text is complete (or cut off: a secret's first characters are replaced). */
  end(): string;
}

export interface Redactor extends Redaction {
  /** Whether the text holds any spelling of any secret. */
  containsSecret(text: string): boolean;
  /** Adds a secret; false when it is too short to be redacted (see MIN_REDACTED_LENGTH). */
  add(secret: string | NamedSecret): boolean;
}

interface Span {
  start: number;
  end: number;
  names: Set<string>;
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

  /** Where secrets are in the text, left to right; overlapping ones are one span covering all of them. */
  const spans = (text: string): Span[] => {
    const found = compiled();
    if (!found) return [];
    const { leftmost, startingAt } = found;
    leftmost.lastIndex = 0;
    const all: Span[] = [];
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
      all.push({ start, end, names });
      leftmost.lastIndex = end;
    }
    return all;
  };

  const redactText = (text: string): string => {
    let redacted = '';
    let copiedUpTo = 0;
    for (const { start, end, names } of spans(text)) {
      redacted += text.slice(copiedUpTo, start) + label(names);
      copiedUpTo = end;
    }
    return copiedUpTo === 0 ? text : redacted + text.slice(copiedUpTo);
  };

  const spellings = () => [...namesBySpelling.keys()];

  const redactCut = (text: string): string => {
    const redacted = redactText(text);
    const leaked = secretPrefixAtEnd(redacted, spellings());
    return leaked === 0 ? redacted : `${redacted.slice(0, redacted.length - leaked)}${UNNAMED}`;
  };

  const stream = (): StreamRedactor => {
    const holdBack = Math.max(0, ...spellings().map((spelling) => spelling.length - 1));
    let held = '';
    return {
      push(piece) {
        const text = held + piece;
        let shown = text.length - holdBack;
        if (shown <= 0) {
          held = text;
          return '';
        }
        // A secret that starts before the held-back part is complete in `text`; one reaching into it waits whole.
        const straddling = spans(text).find((span) => span.start < shown && span.end > shown);
        if (straddling) shown = straddling.start;
        held = text.slice(shown);
        return redactText(text.slice(0, shown));
      },
      end() {
        const rest = held;
        held = '';
        return redactCut(rest);
      },
    };
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
    cutText: (text, limit, take) => cutRedacted(redactText(text), limit, spellings(), UNNAMED, take),
    redactCut,
    stream,
    containsSecret(text) {
      const found = compiled();
      if (!found) return false;
      found.leftmost.lastIndex = 0;
      return found.leftmost.test(text);
    },
    add,
  };
}

/** What replaces a secret's first characters at a cut, where which secret it was is not known for sure. */
const UNNAMED = '[redacted]';

function label(names: ReadonlySet<string>): string {
  const named = [...names].filter((name) => name !== '').sort();
  return named.length === 0 ? UNNAMED : `[redacted:${named.join(',')}]`;
}
