import { describe, expect, it } from 'vitest';
import { createRedactor } from './redactor';
import { MIN_REDACTED_LENGTH, secretSpellings } from './secret-spellings';

const TOKEN = 'sk-live_9f8e7d6c5b4a';

describe('redactor: plain values', () => {
  it("replaces every occurrence with the secret's name, and leaves other text alone", () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: TOKEN }]);
    expect(redactor.redactText(`key=${TOKEN}; again ${TOKEN}.`)).toBe(
      'key=[redacted:API_KEY]; again [redacted:API_KEY].',
    );
    expect(redactor.redactText('nothing secret here')).toBe('nothing secret here');
  });

  it('says [redacted] for values given without a name', () => {
    expect(createRedactor([TOKEN]).redactText(`a ${TOKEN} b`)).toBe('a [redacted] b');
  });

  it('ignores values too short to redact, and says so when one is added', () => {
    const redactor = createRedactor();
    expect(redactor.add('abc')).toBe(false);
    expect(redactor.add({ name: 'PIN', value: '4821' })).toBe(true);
    expect(MIN_REDACTED_LENGTH).toBe(4);
    expect(redactor.redactText('abc 4821')).toBe('abc [redacted:PIN]');
  });

  it('picks up secrets added after it was made', () => {
    const redactor = createRedactor([{ name: 'A', value: 'first-secret' }]);
    expect(redactor.redactText('second-secret')).toBe('second-secret');
    redactor.add({ name: 'B', value: 'second-secret' });
    expect(redactor.redactText('first-secret second-secret')).toBe('[redacted:A] [redacted:B]');
  });

  it('redacts characters regular expressions treat specially as plain text', () => {
    const tricky = 'a.b*c+d?e(f)[g]{h}|i\\j^k$l/m-n';
    const redactor = createRedactor([{ name: 'T', value: tricky }]);
    expect(redactor.redactText(`<${tricky}>`)).toBe('<[redacted:T]>');
    expect(redactor.redactText('aXb*c+d?e(f)[g]{h}|i\\j^k$l/m-n')).not.toContain('[redacted');
  });
});

describe('redactor: encodings', () => {
  const secret = 'p@ss w/rd+"ü"&x';
  const redactor = createRedactor([{ name: 'PASSWORD', value: secret }]);

  it.each([
    ['URL-encoded', encodeURIComponent(secret)],
    [
      'URL-encoded with lower-case hex',
      encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    ],
    ['form-encoded', new URLSearchParams({ q: secret }).toString().slice(2)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
    ['JSON-escaped ASCII-only (Python)', '"p@ss w/rd+\\"\\u00fc\\"&x"'.slice(1, -1)],
  ])('%s', (_, spelling) => {
    expect(spelling).not.toBe(secret);
    expect(redactor.redactText(`before ${spelling} after`)).toBe('before [redacted:PASSWORD] after');
  });

  it("as the URL parser writes it in a query, a path and a fragment (a redirect's Location, an error's URL)", () => {
    const urlish = 'tok en"<ü>`{x}\'';
    const named = createRedactor([{ name: 'URLISH', value: urlish }]);
    const url = new URL(`http://example.test/${urlish}?key=${urlish}#${urlish}`);
    expect(url.href).not.toContain(urlish);
    expect(named.redactText(url.href)).toBe(
      'http://example.test/[redacted:URLISH]?key=[redacted:URLISH]#[redacted:URLISH]',
    );
  });

  it('inside base64 at every alignment: Basic auth headers with users of any length, URL-safe too', () => {
    const token = 'ghp_R4nd0mT0k3nValue';
    const named = createRedactor([{ name: 'TOKEN', value: token }]);
    for (const user of ['u', 'ab', 'bob', 'alice']) {
      const header = `Authorization: Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;
      const redacted = named.redactText(header);
      expect(redacted).toContain('[redacted:TOKEN]');
      const left = redacted.replace('Authorization: Basic ', '').split('[redacted:TOKEN]').join('');
      expect(left.length).toBeLessThanOrEqual(Math.ceil(((user.length + 1) * 8) / 6) + 4);
    }
    const urlSafe = Buffer.from(`x${'\u00ff\u00fe'}${token}`).toString('base64url');
    expect(named.redactText(urlSafe)).toContain('[redacted:TOKEN]');
  });

  it('offers no spellings for a value too short to redact', () => {
    expect(secretSpellings('abc')).toEqual([]);
    expect(secretSpellings('abcd')).toContain('abcd');
  });
});

describe('redactor: overlapping and nested secrets', () => {
  it('redacts the whole span when two secrets overlap, naming both', () => {
    const redactor = createRedactor([
      { name: 'LEFT', value: 'abcdefgh' },
      { name: 'RIGHT', value: 'efghijkl' },
    ]);
    expect(redactor.redactText('xx abcdefghijkl yy')).toBe('xx [redacted:LEFT,RIGHT] yy');
    expect(redactor.redactText('xx efghijkl abcdefgh')).toBe('xx [redacted:RIGHT] [redacted:LEFT]');
  });

  it('prefers the longer secret when one contains the other', () => {
    const redactor = createRedactor([
      { name: 'SHORT', value: 'secret' },
      { name: 'LONG', value: 'topsecretvalue' },
    ]);
    expect(redactor.redactText('topsecretvalue and secret')).toBe('[redacted:LONG] and [redacted:SHORT]');
  });

  it('names every secret that shares a value', () => {
    const redactor = createRedactor([
      { name: 'B_KEY', value: 'same-value' },
      { name: 'A_KEY', value: 'same-value' },
    ]);
    expect(redactor.redactText('same-value')).toBe('[redacted:A_KEY,B_KEY]');
  });

  it('chains of overlaps are covered to their end', () => {
    const redactor = createRedactor(['aaaabbbb', 'bbbbcccc', 'ccccdddd']);
    expect(redactor.redactText('-aaaabbbbccccdddd-')).toBe('-[redacted]-');
  });
});

describe('redactor: large texts and many secrets', () => {
  it('finds each of 300 secrets in a 3 MB text and leaves no trace of any', () => {
    const secrets = Array.from({ length: 300 }, (_, index) => ({
      name: `S${index}`,
      value: `tok_${index.toString(36)}_${(index * 7919).toString(16)}qz`,
    }));
    const redactor = createRedactor(secrets);
    const filler = 'The quick brown fox jumps over the lazy dog. '.repeat(230);
    const text = secrets.map((secret) => `${filler}${secret.value}`).join('\n');
    expect(text.length).toBeGreaterThan(3_000_000);
    const redacted = redactor.redactText(text);
    for (const secret of secrets) expect(redacted.includes(secret.value)).toBe(false);
    expect(redacted.match(/\[redacted:S\d+\]/g)).toHaveLength(300);
    expect(redacted.endsWith('[redacted:S299]')).toBe(true);
  });
});

describe('redactor: values', () => {
  const redactor = createRedactor([
    { name: 'KEY', value: TOKEN },
    { name: 'PIN', value: '987654' },
  ]);

  it('redacts strings at any depth, object keys included, and keeps the shape', () => {
    const value = {
      success: false,
      output: `got ${TOKEN}`,
      error: null,
      headers: [{ name: 'authorization', value: `Bearer ${TOKEN}` }],
      [TOKEN]: { nested: [1, true, encodeURIComponent(TOKEN)] },
    };
    expect(redactor.redactValue(value)).toEqual({
      success: false,
      output: 'got [redacted:KEY]',
      error: null,
      headers: [{ name: 'authorization', value: 'Bearer [redacted:KEY]' }],
      '[redacted:KEY]': { nested: [1, true, '[redacted:KEY]'] },
    });
    expect(value.output).toBe(`got ${TOKEN}`);
  });

  it('redacts a number whose digits spell a secret, and what JSON would write for Dates and errors', () => {
    expect(redactor.redactValue({ pin: 987654, other: 12 })).toEqual({ pin: '[redacted:PIN]', other: 12 });
    const error = new TypeError(`Headers.append: "Bearer ${TOKEN}" is an invalid header value`);
    const redacted = redactor.redactValue(error);
    expect(redacted).toBeInstanceOf(Error);
    expect(redacted.name).toBe('TypeError');
    expect(redacted.message).toBe('Headers.append: "Bearer [redacted:KEY]" is an invalid header value');
    expect(redacted.stack).not.toContain(TOKEN);
    expect(redactor.redactValue({ at: new Date('2026-01-02T03:04:05Z') })).toEqual({
      at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('copes with values that refer to themselves', () => {
    const looped: Record<string, unknown> = { text: TOKEN };
    looped.self = looped;
    const redacted = redactor.redactValue(looped) as Record<string, unknown>;
    expect(redacted.text).toBe('[redacted:KEY]');
    expect(redacted.self).toBe(redacted);
  });

  it('tells whether a text holds a secret', () => {
    expect(redactor.containsSecret(`x${encodeURIComponent(TOKEN)}`)).toBe(true);
    expect(redactor.containsSecret('clean')).toBe(false);
    expect(redactor.containsSecret(`x${encodeURIComponent(TOKEN)}`)).toBe(true);
    expect(createRedactor().containsSecret(TOKEN)).toBe(false);
  });
});

describe('redactor: text that arrives in pieces', () => {
  const SECRET = 'ghp_Zx81kQ7wLm2vN5tR';
  const redactor = createRedactor([{ name: 'GITHUB_TOKEN', value: SECRET }]);

  /** Everything a stream shows of `pieces`, piece by piece, then at its end. */
  function streamed(pieces: readonly string[]): { shown: string[]; whole: string } {
    const stream = redactor.stream();
    const shown = [...pieces.map((piece) => stream.push(piece)), stream.end()];
    return { shown, whole: shown.join('') };
  }

  it('never shows a secret, in any spelling, split in two at any position', () => {
    for (const spelling of secretSpellings(SECRET)) {
      const text = `before ${spelling} after`;
      for (let split = 1; split < text.length; split += 1) {
        const { whole } = streamed([text.slice(0, split), text.slice(split)]);
        expect(whole, `${spelling} split at ${split}`).toBe('before [redacted:GITHUB_TOKEN] after');
      }
    }
  });

  it('never shows a secret sent one character at a time, nor a base64 spelling of it', () => {
    const basic = Buffer.from(`user:${SECRET}`).toString('base64');
    for (const text of [`a ${SECRET} b`, `Authorization: Basic ${basic}`]) {
      const { whole } = streamed([...text]);
      expect(whole).toContain('[redacted:GITHUB_TOKEN]');
      expect(whole).not.toContain(SECRET.slice(0, 8));
    }
  });

  it('holds back no more than the longest spelling less one character, and shows the rest at once', () => {
    const longest = Math.max(...secretSpellings(SECRET).map((spelling) => spelling.length));
    const stream = redactor.stream();
    const text = 'x'.repeat(100);
    expect(stream.push(text)).toBe(text.slice(0, 100 - (longest - 1)));
    expect(stream.end()).toBe(text.slice(100 - (longest - 1)));
    expect(createRedactor().stream().push('no secrets, nothing held')).toBe('no secrets, nothing held');
  });

  it('replaces the first characters of a secret when the text ends in the middle of it', () => {
    expect(streamed(['cut off: ', SECRET.slice(0, 9)]).whole).toBe('cut off: [redacted]');
  });
});

describe('redactor: cutting text', () => {
  const SECRET = 'sk-proj-Qm4Tz9Lw2Xc7Vb';
  const redactor = createRedactor([{ name: 'OPENAI', value: SECRET }]);

  it('redacts, then cuts, and leaves no first characters of a secret at the cut', () => {
    const text = `${'a'.repeat(10)}${SECRET}${'b'.repeat(10)}`;
    for (let limit = 10; limit < text.length; limit += 1) {
      const cut = redactor.cutText(text, limit);
      expect(cut).not.toContain(SECRET.slice(0, 8));
      expect(cut.startsWith('a'.repeat(10))).toBe(true);
    }
    expect(redactor.cutText('short', 100)).toBe('short');
  });

  it('redacts text cut elsewhere (a byte cap) with the same care', () => {
    expect(redactor.redactCut(`printed ${SECRET.slice(0, 12)}`)).toBe('printed [redacted]');
    expect(redactor.redactCut(`printed ${SECRET}`)).toBe('printed [redacted:OPENAI]');
  });
});
