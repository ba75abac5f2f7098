import type { Result } from '../api/result';

export type PathFlavor = 'posix' | 'win32';

export const HOST_FLAVOR: PathFlavor = process.platform === 'win32' ? 'win32' : 'posix';

/** Linux's PATH_MAX; longer paths fail in the OS with ENAMETOOLONG, so they are refused up front. */
export const MAX_PATH_BYTES = 4096;
/** NAME_MAX on Linux and macOS, and the Windows limit for one name. */
export const MAX_NAME_BYTES = 255;

/** Nothing, or why the path is refused (to follow the quoted path). */
export type Screening = Result<void, string>;

const WINDOWS_DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\..*)?$/i;
// C0 and C1 control characters: invisible in a prompt or a log, and \n, \r or \t split lines.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/u;
const DRIVE = /^[A-Za-z]:/;
// With the u flag a surrogate pair is one code point, so only unpaired halves are in category Cs.
export const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The checks on a path as the model wrote it, before it is resolved: forms that are refused whatever
 * folders the agent may use. It is pure, so the Windows rules are tested on every platform.
 *
 * On POSIX a backslash is refused although the OS would take it as part of a name: a file called
 * `..\..\secret` is harmless here but becomes a way out when the org folder is opened on Windows (orgs
 * move between machines), and a model writing backslashes means folders, not one odd name.
 */
export function screenRawPath(
  raw: string,
  flavor: PathFlavor = HOST_FLAVOR,
  /** What a relative path starts from, in the words of whoever reads the reason. */
  base = 'your workspace',
): Screening {
  if (raw.length === 0) return refuse('is empty');
  if (raw.includes('\0')) return refuse('contains a NUL byte');
  const control = CONTROL_CHARACTER.exec(raw);
  if (control) return refuse(`contains the control character ${codePoint(control[0])}`);
  if (LONE_SURROGATE.test(raw))
    return refuse(
      'is not valid Unicode (it has a lone surrogate), so the file system would open another name',
    );
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > MAX_PATH_BYTES) return refuse(`is ${bytes} bytes long; the limit is ${MAX_PATH_BYTES} bytes`);

  const form = flavor === 'win32' ? windowsForm(raw, base) : posixForm(raw, base);
  if (form) return refuse(form);

  for (const name of raw.split(flavor === 'win32' ? /[\\/]/ : '/')) {
    if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES)
      return refuse(`has a name longer than ${MAX_NAME_BYTES} bytes ("${[...name].slice(0, 20).join('')}…")`);
    const problem = flavor === 'win32' ? windowsNameProblem(name) : null;
    if (problem) return refuse(problem);
  }
  return { ok: true, value: undefined };
}

function posixForm(raw: string, base: string): string | null {
  if (/^[\\/]{2}[?.][\\/]/.test(raw))
    return 'is a Windows device path (\\\\?\\ or \\\\.\\), which is not allowed';
  if (/^[\\/]{2}/.test(raw)) return 'is a network (UNC) path, which is not allowed';
  if (DRIVE.test(raw))
    return `is a Windows drive path, which does not exist here; use a path relative to ${base}`;
  if (raw.includes('\\')) return 'contains a backslash; use "/" to separate folders';
  return null;
}

function windowsForm(raw: string, base: string): string | null {
  if (/^[\\/]{2}[?.][\\/]/.test(raw))
    return 'is a Windows device path (\\\\?\\ or \\\\.\\), which is not allowed';
  if (/^[\\/]{2}/.test(raw)) return 'is a network (UNC) path, which is not allowed';
  if (/^[\\/]/.test(raw))
    return `starts at the root of the current drive, which depends on the process; give the drive or a path relative to ${base}`;
  if (DRIVE.test(raw) && !/^[A-Za-z]:[\\/]/.test(raw))
    return 'is relative to the current folder of a drive ("C:" without a slash), which is not allowed';
  return null;
}

/** Names Windows would open as something else than they say. `C:` is the drive, checked before. */
function windowsNameProblem(name: string): string | null {
  if (name === '' || name === '.' || name === '..' || /^[A-Za-z]:$/.test(name)) return null;
  if (name.includes(':')) return `has a ":" in the name "${name}" (a Windows alternate data stream)`;
  if (/[. ]$/.test(name)) return `has the name "${name}", which ends in a dot or a space that Windows drops`;
  if (WINDOWS_DEVICE_NAMES.test(name.trim())) return `uses the reserved Windows device name "${name}"`;
  if (/[<>"|?*]/.test(name)) return `has a character Windows does not allow in the name "${name}"`;
  return null;
}

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function refuse(reason: string): Screening {
  return { ok: false, error: reason };
}
