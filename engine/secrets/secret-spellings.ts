/**
 * Values shorter than this are not redacted: replacing every "abc" or "42" would shred ordinary
 * text and numbers, and the pattern of redactions would itself give the value away. Such values are
 * not secrets worth the name; the CLI warns when one is stored.
 */
export const MIN_REDACTED_LENGTH = 4;

/** Base64 fragments shorter than this are not searched for: they turn up by chance in other base64. */
const MIN_BASE64_CORE = 8;

/**
 * The ways a secret can appear in text the engine writes: as given; URL-encoded (upper and lower case
 * hex, form-encoded, and as the WHATWG URL serializer writes a query, path or fragment, e.g. in a
 * redirect's Location); JSON-escaped (as JavaScript writes it, and ASCII-only as Python does); and
 * inside base64, e.g. the `user:secret` of a Basic Authorization header, at each of the three
 * alignments a prefix can give it. Empty when the value is too short to redact.
 */
export function secretSpellings(value: string): string[] {
  if (value.length < MIN_REDACTED_LENGTH) return [];
  const urlEncoded = encodeURIComponent(value);
  const jsonEscaped = JSON.stringify(value).slice(1, -1);
  const spellings = new Set([
    value,
    urlEncoded,
    urlEncoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams([['', value]]).toString().slice(1),
    ...Object.values(URL_COMPONENT_SETS).map((set) => percentEncode(value, set)),
    jsonEscaped,
    asciiJsonEscaped(jsonEscaped),
    ...base64Cores(value),
  ]);
  return [...spellings];
}

/** Characters the WHATWG URL serializer escapes in each component, besides controls and non-ASCII. */
const URL_COMPONENT_SETS = { query: ' "#<>\'', path: ' "#<>?`{}', fragment: ' "<>`' } as const;

function percentEncode(value: string, set: string): string {
  let encoded = '';
  for (const character of value) {
    const code = character.codePointAt(0)!;
    const escape = code < 0x21 || code > 0x7e || set.includes(character);
    encoded += escape
      ? [...Buffer.from(character, 'utf8')]
          .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
          .join('')
      : character;
  }
  return encoded;
}

/** Python's json.dumps writes every non-ASCII character as a \u escape with lower-case hex. */
function asciiJsonEscaped(jsonEscaped: string): string {
  return jsonEscaped.replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The base64 characters that depend on the secret's bytes alone, for a secret that starts 0, 1 or 2
 * bytes into a 3-byte group; in standard and URL-safe alphabets. The characters at either edge also
 * carry bits of the neighbouring bytes, so they are left out: at most a few bits of the secret stay
 * beside a redaction, never enough to recover it.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const firstBit = offset * 8;
    const endBit = firstBit + bytes.length * 8;
    const first = Math.ceil(firstBit / 6);
    const end = Math.floor(endBit / 6);
    const core = encoded.slice(first, end);
    if (core.length < MIN_BASE64_CORE) continue;
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}
