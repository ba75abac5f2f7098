import { describe, expect, it } from 'vitest';
import { globToRegExp, includeMatcher } from './glob-pattern';

const matches = (pattern: string, path: string, caseSensitive = true) => {
  const compiled = globToRegExp(pattern, { caseSensitive });
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.value.test(path);
};

describe('glob patterns', () => {
  it('lets **/ match no folder at all (the @ljoukov/llm defect), or any number of them', () => {
    expect(matches('**/*.ts', 'x.ts')).toBe(true);
    expect(matches('**/*.ts', 'a/b/c/x.ts')).toBe(true);
    expect(matches('src/**/{a,c}.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/{a,c}.ts', 'src/deep/er/c.ts')).toBe(true);
    expect(matches('src/**/{a,c}.ts', 'src/b.ts')).toBe(false);
    expect(matches('a/**/**/b', 'a/b')).toBe(true);
  });

  it('keeps * and ? inside one name', () => {
    expect(matches('*.ts', 'x.ts')).toBe(true);
    expect(matches('*.ts', 'src/x.ts')).toBe(false);
    expect(matches('src/?.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/?.ts', 'src/ab.ts')).toBe(false);
    expect(matches('src/*', 'src/a/b')).toBe(false);
  });

  it('matches dot files, and ** at the end matches everything below', () => {
    expect(matches('*', '.env')).toBe(true);
    expect(matches('**/*.md', '.github/README.md')).toBe(true);
    expect(matches('docs/**', 'docs/a/b/c.txt')).toBe(true);
  });

  it('supports classes, negated classes, nested braces and escapes', () => {
    expect(matches('file[0-9].txt', 'file7.txt')).toBe(true);
    expect(matches('file[!0-9].txt', 'file7.txt')).toBe(false);
    expect(matches('file[!0-9].txt', 'fileA.txt')).toBe(true);
    expect(matches('*.{ts,{c,m}js}', 'a.mjs')).toBe(true);
    expect(matches('*.{ts,{c,m}js}', 'a.js')).toBe(false);
    expect(matches('\\*.txt', '*.txt')).toBe(true);
    expect(matches('\\*.txt', 'a.txt')).toBe(false);
    expect(matches('a+b(1).txt', 'a+b(1).txt')).toBe(true);
    expect(matches('{lonely', '{lonely')).toBe(true);
    expect(matches('[unclosed', '[unclosed')).toBe(true);
  });

  it('ignores case unless asked, and a leading ./', () => {
    expect(matches('*.TS', 'a.ts', false)).toBe(true);
    expect(matches('*.TS', 'a.ts', true)).toBe(false);
    expect(matches('./src/*.ts', 'src/a.ts')).toBe(true);
  });

  it('says what is wrong with a pattern that cannot be compiled', () => {
    const compiled = globToRegExp('[z-a]', { caseSensitive: true });
    expect(compiled.ok).toBe(false);
    expect(!compiled.ok && compiled.error).toMatch(/^invalid glob pattern "\[z-a\]": /);
  });

  it('matches include filters on the name when they have no slash, on the path when they do', () => {
    const byName = includeMatcher('*.ts', { caseSensitive: true });
    const byPath = includeMatcher('src/*.ts', { caseSensitive: true });
    if (!byName.ok || !byPath.ok) throw new Error('patterns compile');
    expect(byName.value('deep/er/x.ts')).toBe(true);
    expect(byPath.value('src/x.ts')).toBe(true);
    expect(byPath.value('lib/src/x.ts')).toBe(false);
  });
});
