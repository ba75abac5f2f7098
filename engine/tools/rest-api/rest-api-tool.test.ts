import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedactor } from '../../secrets/redactor';
import { loopbackHttp, toolContext } from '../composed/test-support/composed-world';
import { RestApiEntry } from './rest-api-config';
import { restApiCatalogEntries, restApiUrl } from './rest-api-tool';

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

describe('a REST API answer is cut after it is redacted', () => {
  const TOKEN = 'tok-rest-Jm6Vq2Xw9Lc4';
  const spellings = [TOKEN, Buffer.from(TOKEN).toString('base64')];
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    // GET /<status>/<pad>/<spelling index>: `pad` characters, then a spelling of the token.
    server = createServer((request, response) => {
      const [, status, pad, spelling] = (request.url ?? '').split('/');
      response.writeHead(Number(status), { 'content-type': 'text/plain' });
      response.end(`${'x'.repeat(Number(pad))}${spellings[Number(spelling)]} and more`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('at 500 characters of an error and 32 KiB of a text: no first characters of a stored secret stay, plain or base64', async () => {
    const [records] = restApiCatalogEntries(
      [
        {
          name: 'records',
          entry: RestApiEntry.parse({ base_url: `http://records.test:${port}`, auth: { style: 'none' } }),
        },
      ],
      { lookup: () => undefined, refusal: () => null, http: loopbackHttp(['records.test']) },
    );
    const context = {
      ...toolContext(tmpdir()),
      redaction: createRedactor([{ name: 'SERVICE_TOKEN', value: TOKEN }]),
    };
    for (const [status, limit] of [
      [500, 500],
      [200, 32 * 1024],
    ] as const)
      for (const [index, spelling] of spellings.entries())
        for (const kept of [8, 13, TOKEN.length - 1]) {
          const result = await records!.spec.run(
            { method: 'GET', path: `/${status}/${limit - kept}/${index}` },
            context,
          );
          const shown = `${result.output ?? ''}${result.error ?? ''}`;
          expect(shown).toContain('xxxxxxxx');
          expect(shown).not.toContain(spelling.slice(0, 8));
        }
  });
});
