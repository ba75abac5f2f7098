import { describe, expect, it } from 'vitest';
import { cutRedacted, secretPrefixAtEnd } from './cut-redacted';

const SECRET = 'sk-live-4f8a1c9e2b7d';

describe('cutting text after redaction', () => {
  it('leaves text within the limit alone', () => {
    expect(cutRedacted('short', 10, [SECRET], '[R]')).toBe('short');
  });

  it('replaces the first characters of a secret left at the cut edge, from 8 characters on', () => {
    const text = `${'x'.repeat(20)}${SECRET}`;
    for (const kept of [8, 12, SECRET.length - 1])
      expect(cutRedacted(text, 20 + kept, [SECRET], '[R]')).toBe(`${'x'.repeat(20)}[R]`);
  });

  it('also from 4 characters, so a short secret is never left but for its last character', () => {
    expect(cutRedacted('abc pin-73', 9, ['pin-735'], '[R]')).toBe('abc [R]');
    expect(cutRedacted('abc sk-live', 8, [SECRET], '[R]')).toBe('abc [R]');
  });

  it('keeps a tail that only looks like the start of a secret for fewer than 4 characters', () => {
    expect(cutRedacted('the task', 7, [SECRET], '[R]')).toBe('the tas');
    expect(secretPrefixAtEnd('ends with sk-', [SECRET])).toBe(0);
  });

  it('checks every spelling it is given, and takes the longest tail', () => {
    const encoded = encodeURIComponent('p@ss w/rd-991');
    expect(secretPrefixAtEnd(`q=${encoded.slice(0, 9)}`, ['p@ss w/rd-991', encoded])).toBe(9);
  });
});
