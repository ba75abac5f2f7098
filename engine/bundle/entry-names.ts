import type { Result } from '../api/result';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * Why an entry's name may not be written under the target folder, or the name as a relative path with
 * `/` between names. Refuses what could land outside the folder or somewhere other than it says on
 * another system: `..`, absolute paths (`/x`, `C:\x`, `\\server\share`), backslashes, empty or `.`
 * parts, control characters, and names Windows reserves or trims (`CON`, `a.`, `a `).
 */
export function checkEntryName(name: string): Result<string, string> {
  if (name.length === 0) return { ok: false, error: 'an entry has no name' };
  if (CONTROL.test(name))
    return { ok: false, error: `"${printable(name)}" has a control or text-direction character in its name` };
  if (/^[A-Za-z]:/.test(name)) return { ok: false, error: `"${name}" is an absolute path (a drive letter)` };
  if (name.startsWith('\\\\') || name.startsWith('//'))
    return { ok: false, error: `"${name}" is an absolute path (a network share)` };
  if (name.startsWith('/') || name.startsWith('\\'))
    return { ok: false, error: `"${name}" is an absolute path` };
  if (name.includes('\\')) return { ok: false, error: `"${name}" has a backslash in its name` };
  const path = name.endsWith('/') ? name.slice(0, -1) : name;
  for (const part of path.split('/')) {
    if (part === '..') return { ok: false, error: `"${name}" leads out of the folder (..)` };
    if (part === '' || part === '.') return { ok: false, error: `"${name}" has an empty or "." part` };
    if (WINDOWS_RESERVED.test(part))
      return { ok: false, error: `"${name}" uses a name Windows reserves (${part})` };
    if (/[. ]$/.test(part)) return { ok: false, error: `"${name}" has a part ending in a dot or space` };
  }
  return { ok: true, value: path };
}

/** Names that one file system keeps apart and another makes one: upper and lower case, Unicode forms. */
export const collisionKey = (path: string): string => path.normalize('NFC').toLowerCase().normalize('NFC');

const printable = (name: string): string =>
  name.replace(CONTROL_EVERYWHERE, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);
const CONTROL_EVERYWHERE = new RegExp(CONTROL.source, 'g');
