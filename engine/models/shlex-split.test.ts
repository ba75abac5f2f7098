import { describe, expect, it } from 'vitest';
import { shlexSplit } from './shlex-split';

describe('shlexSplit (Python shlex.split, POSIX mode)', () => {
  it('splits on runs of whitespace', () => {
    expect(shlexSplit('  llm   -m  gpt-4o\tchat ')).toEqual({
      ok: true,
      value: ['llm', '-m', 'gpt-4o', 'chat'],
    });
  });

  it('keeps quoted text as one word and joins adjacent quoted parts', () => {
    expect(shlexSplit(`say 'hello world' "it's" a"b"'c'`)).toEqual({
      ok: true,
      value: ['say', 'hello world', "it's", 'abc'],
    });
  });

  it('treats backslashes literally inside single quotes and as escapes of " and \\ inside double quotes', () => {
    expect(shlexSplit(`'a\\b' "c\\"d\\\\e\\n"`)).toEqual({ ok: true, value: ['a\\b', 'c"d\\e\\n'] });
  });

  it('lets a bare backslash escape a space', () => {
    expect(shlexSplit('open my\\ file.txt')).toEqual({ ok: true, value: ['open', 'my file.txt'] });
  });

  it('keeps an empty quoted word', () => {
    expect(shlexSplit(`cmd ''`)).toEqual({ ok: true, value: ['cmd', ''] });
  });

  it('reports unclosed quotes and a trailing backslash', () => {
    expect(shlexSplit(`echo 'oops`)).toEqual({
      ok: false,
      error: 'no closing quotation (a single quote is not closed)',
    });
    expect(shlexSplit(`echo "oops`)).toEqual({
      ok: false,
      error: 'no closing quotation (a double quote is not closed)',
    });
    expect(shlexSplit('echo \\')).toEqual({
      ok: false,
      error: 'no escaped character (the line ends with a backslash)',
    });
  });
});
