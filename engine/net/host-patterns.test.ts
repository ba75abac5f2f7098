import { describe, expect, it } from 'vitest';
import {
  describeHostPatternIssues,
  matchesAnyHostPattern,
  normalizeHost,
  parseHostPattern,
  parseHostPatterns,
  type HostPattern,
} from './host-patterns';

function pattern(text: string): HostPattern {
  const parsed = parseHostPattern(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.error}`);
  return parsed.value;
}

const matches = (patternText: string, host: string, port = 443) =>
  matchesAnyHostPattern([pattern(patternText)], normalizeHost(new URL(`https://${host}/`).hostname), port);

describe('parseHostPattern', () => {
  it('normalises hosts the way URLs are normalised', () => {
    expect(pattern('API.Example.com.')).toMatchObject({ kind: 'exact', host: 'api.example.com', port: null });
    expect(pattern('*.Bücher.de')).toMatchObject({ kind: 'subdomains', host: 'xn--bcher-kva.de' });
    expect(pattern('api.example.com:8443')).toMatchObject({ host: 'api.example.com', port: 8443 });
    expect(pattern('[2606:4700:0:0::1]:443')).toMatchObject({ host: '2606:4700::1', port: 443 });
    expect(pattern('203.0.113.7')).toMatchObject({ kind: 'exact', host: '203.0.113.7' });
    expect(pattern('  internal_svc.example.com ')).toMatchObject({ host: 'internal_svc.example.com' });
  });

  it.each([
    ['', 'is empty'],
    ['https://api.example.com', 'without a scheme'],
    ['api.example.com/v1', 'nothing else'],
    ['user@api.example.com', 'nothing else'],
    ['*', "'*' would allow every host"],
    ['*example.com', 'whole first label'],
    ['api.*.example.com', 'whole first label'],
    ['*.*.example.com', 'whole first label'],
    ['*.com', 'too broad'],
    ['*.10.0.0.1', 'not to IP addresses'],
    ['127.1', 'non-canonical spelling of the IP address 127.0.0.1'],
    ['2130706433', 'non-canonical spelling of the IP address 127.0.0.1'],
    ['0x7f.0.0.1', 'non-canonical spelling'],
    ['2001:db8::1', 'in brackets'],
    ['[2001:db8::1', "closing ']'"],
    ['[2001:db8::1]x', "only ':port'"],
    ['api.example.com:0', 'from 1 to 65535'],
    ['api.example.com:99999', 'from 1 to 65535'],
    ['api.example.com:http', 'from 1 to 65535'],
    ['api..example.com', 'not a valid host name'],
    ['-api.example.com', 'not a valid host name'],
    ['api!.example.com', 'not a valid host name'],
    ['a'.repeat(64) + '.example.com', 'not a valid host name'],
  ])('rejects %j: %s', (text, message) => {
    const parsed = parseHostPattern(text);
    expect(parsed.ok ? 'accepted' : parsed.error).toContain(message);
  });

  it('reports every bad entry of a list with its position', () => {
    const parsed = parseHostPatterns(['api.example.com', '*', 'https://x.com']);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.map((issue) => issue.index)).toEqual([1, 2]);
    expect(describeHostPatternIssues('allowed_hosts', parsed.error)).toMatch(
      /^allowed_hosts\[1\] "\*": '\*' would allow every host.*; allowed_hosts\[2\] "https:\/\/x\.com": write only the host/,
    );
  });
});

describe('matching', () => {
  it('matches an exact host and nothing around it', () => {
    expect(matches('api.example.com', 'api.example.com')).toBe(true);
    expect(matches('api.example.com', 'API.EXAMPLE.COM.')).toBe(true);
    expect(matches('api.example.com', 'x.api.example.com')).toBe(false);
    expect(matches('api.example.com', 'api.example.com.evil.com')).toBe(false);
    expect(matches('api.example.com', 'example.com')).toBe(false);
  });

  it('matches subdomains at any depth for *.x, but not x itself nor a look-alike', () => {
    expect(matches('*.example.com', 'a.example.com')).toBe(true);
    expect(matches('*.example.com', 'a.b.example.com')).toBe(true);
    expect(matches('*.example.com', 'example.com')).toBe(false);
    expect(matches('*.example.com', 'evilexample.com')).toBe(false);
    expect(matches('*.example.com', 'example.com.evil.com')).toBe(false);
  });

  it('matches IDN hosts whichever way they are written', () => {
    expect(matches('*.bücher.de', 'shop.xn--bcher-kva.de')).toBe(true);
    expect(matches('*.xn--bcher-kva.de', 'shop.bücher.de')).toBe(true);
    expect(matches('bücher.de', 'BÜCHER.de')).toBe(true);
  });

  it('checks the port only when the pattern names one', () => {
    expect(matches('api.example.com', 'api.example.com', 8443)).toBe(true);
    expect(matches('api.example.com:8443', 'api.example.com', 8443)).toBe(true);
    expect(matches('api.example.com:8443', 'api.example.com', 443)).toBe(false);
  });

  it('matches IP literals exactly, in canonical form', () => {
    expect(matches('[2606:4700::1]', '[2606:4700:0:0:0:0:0:1]')).toBe(true);
    expect(matches('203.0.113.7', '203.0.113.7')).toBe(true);
    expect(matches('203.0.113.7', '203.0.113.70')).toBe(false);
  });
});
