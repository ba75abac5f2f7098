import { secretPrefixAtEnd } from '../secrets/cut-redacted';
import { secretSpellings as spellingsOfOne } from '../secrets/secret-spellings';

export const REDACTED = '[REDACTED]';

/**
 * Every spelling a secret can take in text we return (secrets/secret-spellings.ts: as given,
 * URL-, form- and JSON-encoded, inside base64), and the value itself however short. Longest first,
 * so a secret that contains another is replaced whole.
 */
export function secretSpellings(secrets: readonly string[]): string[] {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (secret === '') continue;
    spellings.add(secret);
    spellings.add(encodeURIComponent(secret));
    for (const spelling of spellingsOfOne(secret)) spellings.add(spelling);
  }
  return [...spellings].sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const spelling of secretSpellings(secrets)) redacted = redacted.split(spelling).join(REDACTED);
  return redacted;
}

/**
 * Redacts secrets in bytes. When the bytes were cut off (`truncated`), a tail that is the start of
 * a secret is dropped too, so a cut in the middle of an echoed secret does not leak its prefix.
 */
export function redactBytes(bytes: Uint8Array, secrets: readonly string[], truncated: boolean): Buffer {
  let buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const spellings = secretSpellings(secrets).map((spelling) => Buffer.from(spelling, 'utf8'));
  for (const spelling of spellings) buffer = replaceAll(buffer, spelling, Buffer.from(REDACTED));
  return truncated ? dropSecretPrefixTail(buffer, spellings) : buffer;
}

function replaceAll(haystack: Buffer, needle: Buffer, replacement: Buffer): Buffer {
  let at = haystack.indexOf(needle);
  if (at < 0) return haystack;
  const pieces: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    pieces.push(haystack.subarray(from, at), replacement);
    from = at + needle.length;
    at = haystack.indexOf(needle, from);
  }
  pieces.push(haystack.subarray(from));
  return Buffer.concat(pieces);
}

function dropSecretPrefixTail(buffer: Buffer, spellings: readonly Buffer[]): Buffer {
  const tail = buffer.subarray(
    Math.max(0, buffer.length - Math.max(0, ...spellings.map((spelling) => spelling.length))),
  );
  const leaked = secretPrefixAtEnd(
    tail.toString('latin1'),
    spellings.map((spelling) => spelling.toString('latin1')),
  );
  return buffer.subarray(0, buffer.length - leaked);
}

/** A URL for messages: origin and path, with the query and fragment left out (they may carry tokens). */
export function describeUrl(url: URL): string {
  return `${url.origin}${url.pathname}${url.search ? '?…' : ''}`;
}
