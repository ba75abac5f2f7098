/**
 * Text exactly as LeMMing's Python writes it: `json.dump(value, f, indent=2)` (ensure_ascii on, no
 * trailing newline) and `datetime.now(UTC).isoformat()`. Outbox entries and memory files use both.
 */

import { MAX_JSON_DEPTH } from '../files/json-text';

/**
 * Python's `json.dumps(value, indent=indent)`. Without an indent the separators are `", "` and `": "`,
 * which is also what LeMMing measures memory sizes with and shows in prompts.
 */
export function pythonJsonDumps(value: unknown, indent?: number): string {
  return dump(value, indent === undefined ? null : ' '.repeat(indent), '', 0);
}

function dump(value: unknown, unit: string | null, outer: string, depth: number): string {
  if (depth > MAX_JSON_DEPTH) throw new RangeError(`value nests deeper than ${MAX_JSON_DEPTH} levels`);
  const plain = toJsonValue(value);
  if (plain === null || plain === undefined) return 'null';
  if (typeof plain === 'boolean') return plain ? 'true' : 'false';
  if (typeof plain === 'number') return pythonNumber(plain);
  if (typeof plain === 'bigint') return plain.toString();
  if (typeof plain === 'string') return pythonString(plain);
  const inner = unit === null ? '' : outer + unit;
  const open = unit === null ? '' : `\n${inner}`;
  const separator = unit === null ? ', ' : `,\n${inner}`;
  const close = unit === null ? '' : `\n${outer}`;
  if (Array.isArray(plain)) {
    if (plain.length === 0) return '[]';
    const items = plain.map((item) => dump(item ?? null, unit, inner, depth + 1));
    return `[${open}${items.join(separator)}${close}]`;
  }
  const members = Object.entries(plain as Record<string, unknown>)
    .filter(([, member]) => isSerializable(member))
    .map(([key, member]) => `${pythonString(key)}: ${dump(member, unit, inner, depth + 1)}`);
  if (members.length === 0) return '{}';
  return `{${open}${members.join(separator)}${close}}`;
}

function toJsonValue(value: unknown): unknown {
  const withToJson = value as { toJSON?: () => unknown } | null;
  if (typeof value === 'object' && value !== null && typeof withToJson?.toJSON === 'function')
    return withToJson.toJSON();
  return value;
}

/** Members JSON cannot hold are left out of objects, as JSON.stringify and LeMMing's dicts never have them. */
function isSerializable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

/** ensure_ascii: everything outside printable ASCII becomes `\uXXXX` (UTF-16 units, lower-case hex). */
function pythonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Python prints floats with `repr` (shortest round trip, exponent below 1e-4 and from 1e16, at least two
 * exponent digits). A parsed JSON number no longer says whether it was an int, so whole numbers below
 * 1e16 print as ints, which is what LeMMing's own values (ticks, counts) are.
 */
function pythonNumber(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value + 0);
  const [mantissa = '0', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const exponentSign = exponent < 0 ? '-' : '+';
    return `${sign}${digits[0]}${fraction}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = digits.slice(exponent + 1) || '0';
  return `${sign}${whole}.${fraction}`;
}

/** Python's `datetime.isoformat()` for an aware UTC time, always with six fractional digits. */
export function pythonUtcIsoFormat(epochMicros: number): string {
  const micros = Math.floor(epochMicros);
  const millis = Math.floor(micros / 1000);
  const date = new Date(millis);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const fraction = pad(micros - millis * 1000 + date.getUTCMilliseconds() * 1000, 6);
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${fraction}+00:00`
  );
}

/** Now, in microseconds since the epoch, finer than Date.now() so entries written in one millisecond still sort. */
export function utcNowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** True when `value` nests arrays/objects deeper than `maxDepth`. Iterative, so any parsed value is safe to check. */
export function exceedsJsonDepth(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node))
      stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}
