import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, MAX_PATH_BYTES, screenRawPath } from './screen-raw-path';

const reasonFor = (raw: string, flavor: 'posix' | 'win32' = 'posix') => {
  const screening = screenRawPath(raw, flavor);
  return screening.ok ? null : screening.error;
};

describe('screenRawPath on both platforms', () => {
  it.each(['posix', 'win32'] as const)('accepts ordinary relative paths (%s)', (flavor) => {
    for (const raw of ['notes.md', 'shared/report.md', 'a/b/../c.txt', '..foo', 'é/ü.md', '日本語.txt', '.'])
      expect(reasonFor(raw, flavor), raw).toBeNull();
  });

  it.each(['posix', 'win32'] as const)('refuses what no file system should see (%s)', (flavor) => {
    expect(reasonFor('', flavor)).toBe('is empty');
    expect(reasonFor('a\0b', flavor)).toBe('contains a NUL byte');
    expect(reasonFor('a\nb', flavor)).toBe('contains the control character U+000A');
    expect(reasonFor('a\u0085b', flavor)).toBe('contains the control character U+0085');
    expect(reasonFor('\ud800x', flavor)).toMatch(/lone surrogate/);
    expect(reasonFor('//server/share/x', flavor)).toMatch(/network \(UNC\) path/);
    expect(reasonFor('\\\\?\\C:\\x', flavor)).toMatch(/device path/);
    expect(reasonFor('\\\\.\\pipe\\x', flavor)).toMatch(/device path/);
  });

  it('keeps an emoji (a surrogate pair) as a valid name', () => {
    expect(reasonFor('📝 notes.md')).toBeNull();
  });

  it('refuses a path over 4096 bytes and a name over 255 bytes, counting UTF-8 bytes', () => {
    expect(reasonFor('a/'.repeat(MAX_PATH_BYTES / 2))).toBeNull();
    expect(reasonFor(`${'a/'.repeat(MAX_PATH_BYTES / 2)}b`)).toBe(
      'is 4097 bytes long; the limit is 4096 bytes',
    );
    expect(reasonFor('a'.repeat(MAX_NAME_BYTES))).toBeNull();
    expect(reasonFor('é'.repeat(128))).toBe(`has a name longer than 255 bytes ("${'é'.repeat(20)}…")`);
  });
});

describe('screenRawPath on POSIX', () => {
  it('refuses Windows forms that would mean something else here or on Windows', () => {
    expect(reasonFor('C:\\Windows')).toMatch(/Windows drive path/);
    expect(reasonFor('C:/Windows')).toMatch(/Windows drive path/);
    expect(reasonFor('c:notes.md')).toMatch(/Windows drive path/);
    expect(reasonFor('..\\..\\secret')).toBe('contains a backslash; use "/" to separate folders');
    expect(reasonFor('\\\\server\\share')).toMatch(/UNC/);
  });

  it('accepts absolute paths (the access policy judges them) and names Windows would refuse', () => {
    for (const raw of ['/org/shared/x', 'CON', 'notes.md::$DATA', 'notes.md.', 'ab:c', 'what?.md'])
      expect(reasonFor(raw), raw).toBeNull();
  });
});

describe('screenRawPath on Windows', () => {
  it('accepts drive paths and both separators', () => {
    for (const raw of ['C:\\org\\shared\\x.md', 'D:/org/x', 'sub\\notes.md', 'sub/notes.md'])
      expect(reasonFor(raw, 'win32'), raw).toBeNull();
  });

  it('refuses paths that depend on the current drive or folder of the process', () => {
    expect(reasonFor('C:notes.md', 'win32')).toMatch(/relative to the current folder of a drive/);
    expect(reasonFor('\\org\\x', 'win32')).toMatch(/root of the current drive/);
    expect(reasonFor('/org/x', 'win32')).toMatch(/root of the current drive/);
  });

  it('refuses names Windows would silently open as another name', () => {
    expect(reasonFor('notes.md::$DATA', 'win32')).toMatch(/alternate data stream/);
    expect(reasonFor('sub\\notes.md.', 'win32')).toMatch(/ends in a dot or a space/);
    expect(reasonFor('notes.md ', 'win32')).toMatch(/ends in a dot or a space/);
    expect(reasonFor('con', 'win32')).toMatch(/reserved Windows device name "con"/);
    expect(reasonFor('sub/NUL.txt', 'win32')).toMatch(/reserved Windows device name/);
    expect(reasonFor('COM1', 'win32')).toMatch(/reserved Windows device name/);
    expect(reasonFor('what?.md', 'win32')).toMatch(/character Windows does not allow/);
    expect(reasonFor('console.md', 'win32')).toBeNull();
  });
});
