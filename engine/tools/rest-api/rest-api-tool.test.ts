import { describe, expect, it } from 'vitest';
import { RestApiEntry } from './rest-api-config';
import { restApiUrl } from './rest-api-tool';

const entry = RestApiEntry.parse({
  base_url: 'https://api.example.com/v1/',
  auth: { style: 'bearer' },
  key_secret: 'EXAMPLE_API_KEY',
});
const urlOf = (path: string, query: Record<string, string> = {}) => {
  const made = restApiUrl(entry, path, query);
  return made.ok ? made.value.toString() : `refused: ${made.error}`;
};

describe('a REST API call stays under its base URL', () => {
  it('puts the path after the base path and the query after that, encoded', () => {
    expect(urlOf('/items/42')).toBe('https://api.example.com/v1/items/42');
    expect(urlOf('/search', { q: 'a&b=c', page: '2' })).toBe(
      'https://api.example.com/v1/search?q=a%26b%3Dc&page=2',
    );
    expect(urlOf('//other.example/x')).toBe('https://api.example.com/v1//other.example/x');
  });

  it('refuses a path that climbs out, hides a query, or is not a path', () => {
    for (const path of ['/../admin', '/%2E%2E/admin', '/a/./b', '/a b', '/a?x=1', '/a#b', '/a\\b'])
      expect(urlOf(path), path).toMatch(/^refused: /);
  });

  it('takes only http and https addresses without a user, query or fragment', () => {
    const problems = ['ftp://x.example', 'https://u:p@x.example', 'https://x.example/?k=1', 'x.example'].map(
      (base_url) => RestApiEntry.safeParse({ base_url, auth: { style: 'none' } }).success,
    );
    expect(problems).toEqual([false, false, false, false]);
    expect(
      RestApiEntry.safeParse({ base_url: 'http://nas.local:8080', auth: { style: 'none' } }).success,
    ).toBe(true);
    expect(RestApiEntry.safeParse({ base_url: 'https://x.example', auth: { style: 'bearer' } }).success).toBe(
      false,
    );
  });
});
