import { describe, expect, it, vi } from 'vitest';
import { httpRequest, type HttpRequest, type HttpRequestOptions, type HttpResult } from './http-request';
import {
  FORBIDDEN_ADDRESS,
  OTHER_PUBLIC_ADDRESS,
  PUBLIC_ADDRESS,
  tableLookup,
  testClassifier,
} from './test-support/loopback-network';
import { guardedLoopbackNetwork } from './test-support/guarded-loopback-network';
import { TEST_CA_CERTIFICATE } from './test-support/test-certificates';

const loopback = guardedLoopbackNetwork();

function send(request: Partial<HttpRequest> & { url: string }, options: Partial<HttpRequestOptions> = {}) {
  return httpRequest(
    { method: 'GET', ...request },
    {
      allowedHosts: 'any',
      lookup: tableLookup().lookup,
      classifyAddress: testClassifier,
      deadlineMs: 10_000,
      ...options,
    },
  );
}

function response(result: HttpResult) {
  if (!result.ok) throw new Error(`expected a response, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

function failure(result: HttpResult) {
  if (result.ok) throw new Error(`expected a refusal, got status ${result.value.status}`);
  return result.error;
}

const redirect = (to: string, status = 302) =>
  loopback.network.url('api.example.test', `/redirect?to=${encodeURIComponent(to)}&status=${status}`);

describe('redirects', () => {
  it('refuses an allowed host that redirects to a forbidden one at that hop; the forbidden server records nothing', async () => {
    const result = await send({ url: redirect(loopback.network.url(FORBIDDEN_ADDRESS, '/hello')) });

    expect(failure(result)).toEqual({
      code: 'forbidden_address',
      message: `redirect 1 to http://127.0.0.1:${loopback.network.port}/hello: 127.0.0.1 is this computer (loopback); agents may not reach it`,
    });
    expect(loopback.network.publicServer.requests.map((request) => request.url)).toHaveLength(1);
    expect(loopback.network.forbiddenServer.connections).toBe(0);
    expect(loopback.network.forbiddenServer.requests).toEqual([]);
    expect(loopback.guard.attempts.map((attempt) => attempt.host)).toEqual([PUBLIC_ADDRESS]);
  });

  it('re-resolves and re-checks the host at every hop', async () => {
    const dns = tableLookup({}, { 'flip.example.test': [[PUBLIC_ADDRESS], [FORBIDDEN_ADDRESS]] });
    const result = await send(
      { url: `http://flip.example.test:${loopback.network.port}/redirect?to=%2Fhello` },
      { lookup: dns.lookup },
    );

    expect(failure(result).message).toBe(
      `redirect 1 to http://flip.example.test:${loopback.network.port}/hello: flip.example.test resolves to 127.0.0.1, which is this computer (loopback); agents may not reach it`,
    );
    expect(dns.calls).toEqual(['flip.example.test', 'flip.example.test']);
    expect(loopback.network.forbiddenServer.requests).toEqual([]);
  });

  it('stops after the hop limit', async () => {
    const result = await send(
      { url: loopback.network.url('api.example.test', '/loop') },
      { maxRedirects: 3 },
    );

    expect(failure(result)).toEqual({ code: 'too_many_redirects', message: 'more than 3 redirects' });
    expect(loopback.network.publicServer.requests).toHaveLength(4);
  });

  it('refuses a Location that is not a URL', async () => {
    const result = await send({ url: redirect('http://[not-an-ip]/') });
    expect(failure(result)).toEqual({
      code: 'invalid_redirect',
      message: 'redirect 1: the Location header is not a valid URL',
    });
  });

  it('turns a POST into a bodiless GET on 303 and keeps method and body on 307', async () => {
    const post = { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } };

    const seeOther = response(await send({ ...post, url: redirect('/echo', 303) }));
    expect(JSON.parse(seeOther.body.toString())).toMatchObject({ method: 'GET', body: '' });
    expect(JSON.parse(seeOther.body.toString()).headers['content-type']).toBeUndefined();

    const temporary = response(await send({ ...post, url: redirect('/echo', 307) }));
    expect(JSON.parse(temporary.body.toString())).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(temporary.redirects).toBe(1);
    expect(temporary.url).toBe(loopback.network.url('api.example.test', '/echo'));
  });

  it('drops credential headers and secret-bearing headers on a cross-origin hop, and keeps them on the same origin', async () => {
    const headers = {
      Authorization: 'Bearer tok-1',
      'X-Api-Key': 'key-2',
      'X-Tenant-Auth': 'prefix-s3cr3t-value',
      Accept: 'application/json',
    };
    const options = { secretValues: ['s3cr3t'] };

    response(
      await send({ url: redirect(loopback.network.url('other.example.test', '/hello')), headers }, options),
    );
    const crossOrigin = loopback.network.otherServer.requests[0]?.headers;
    expect(crossOrigin).toMatchObject({ accept: 'application/json' });
    expect(crossOrigin).not.toHaveProperty('authorization');
    expect(crossOrigin).not.toHaveProperty('x-api-key');
    expect(crossOrigin).not.toHaveProperty('x-tenant-auth');

    response(await send({ url: redirect('/hello'), headers }, options));
    expect(loopback.network.publicServer.requests.at(-1)?.headers).toMatchObject({
      authorization: 'Bearer tok-1',
      'x-api-key': 'key-2',
      'x-tenant-auth': 'prefix-s3cr3t-value',
    });
  });
});

describe('DNS rebinding', () => {
  it('connects to the address it checked even when the resolver would answer differently afterwards', async () => {
    // The forbidden server listens on the same port, so a second resolution at connect time would reach it.
    const dns = tableLookup({}, { 'rebind.example.test': [[PUBLIC_ADDRESS], [FORBIDDEN_ADDRESS]] });
    const result = await send(
      { url: `http://rebind.example.test:${loopback.network.port}/hello` },
      { lookup: dns.lookup },
    );

    expect(response(result).body.toString()).toBe(`hello from ${PUBLIC_ADDRESS}`);
    expect(dns.calls).toEqual(['rebind.example.test']);
    expect(loopback.guard.attempts.map((attempt) => attempt.host)).toEqual([PUBLIC_ADDRESS]);
    expect(loopback.network.forbiddenServer.connections).toBe(0);
  });

  it('pins to IPv4 when a name has both families, and never asks DNS for an IP literal', async () => {
    const dns = tableLookup({ 'dual.example.test': ['2606:4700::1', OTHER_PUBLIC_ADDRESS] });
    const classify: HttpRequestOptions['classifyAddress'] = (address) =>
      address === '2606:4700::1' ? { address, class: 'public' } : testClassifier(address);

    response(
      await send(
        { url: `http://dual.example.test:${loopback.network.port}/hello` },
        { lookup: dns.lookup, classifyAddress: classify },
      ),
    );
    response(await send({ url: loopback.network.url(PUBLIC_ADDRESS, '/hello') }, { lookup: dns.lookup }));

    expect(dns.calls).toEqual(['dual.example.test']);
    expect(loopback.guard.attempts.map((attempt) => attempt.host)).toEqual([
      OTHER_PUBLIC_ADDRESS,
      PUBLIC_ADDRESS,
    ]);
  });
});

describe('limits', () => {
  it('cuts an oversized response off at the byte cap, reports the truncation and stops downloading', async () => {
    const result = response(
      await send(
        { url: loopback.network.url('api.example.test', '/bytes?count=50000000') },
        { maxResponseBytes: 1000 },
      ),
    );

    expect(result.truncated).toBe(true);
    expect(result.body.length).toBe(1000);
    await vi.waitFor(() => expect(loopback.network.publicServer.abandonedResponses).toBe(1));
  });

  it('does not call a body of exactly the cap truncated', async () => {
    const result = response(
      await send(
        { url: loopback.network.url('api.example.test', '/bytes?count=1000') },
        { maxResponseBytes: 1000 },
      ),
    );
    expect(result).toMatchObject({ truncated: false, status: 200 });
    expect(result.body.length).toBe(1000);
  });

  it('cuts off a response that trickles one byte every 200 ms at the total deadline', async () => {
    const result = await send(
      { url: loopback.network.url('api.example.test', '/trickle') },
      { deadlineMs: 1000 },
    );

    const error = failure(result);
    expect(error.code).toBe('deadline_exceeded');
    const received = Number(/after (\d+) bytes of the response body/.exec(error.message)?.[1]);
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(6);
    await vi.waitFor(() => expect(loopback.network.publicServer.abandonedResponses).toBe(1));
  });

  it('gives up on a server that never answers at the deadline', async () => {
    const result = await send(
      { url: loopback.network.url('api.example.test', '/hang') },
      { deadlineMs: 300 },
    );
    expect(failure(result)).toEqual({
      code: 'deadline_exceeded',
      message: 'no complete answer within 300 ms (stopped before api.example.test answered)',
    });
  });

  it('counts the deadline from the first byte of work, DNS included', async () => {
    const slowLookup: HttpRequestOptions['lookup'] = () => new Promise(() => undefined);
    const result = await send(
      { url: 'http://slow-dns.example.test/' },
      { lookup: slowLookup, deadlineMs: 200 },
    );
    expect(failure(result).message).toBe(
      'no complete answer within 200 ms (stopped while resolving the host)',
    );
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await send(
      { url: loopback.network.url('api.example.test', '/hang') },
      { signal: controller.signal },
    );
    expect(failure(result).code).toBe('aborted');
  });

  it('refuses limits that make no sense', async () => {
    const result = await send(
      { url: loopback.network.url('api.example.test', '/hello') },
      { deadlineMs: 0, maxRedirects: -1 },
    );
    expect(failure(result)).toMatchObject({ code: 'invalid_options' });
    expect(failure(result).message).toMatch(/deadlineMs: .*; maxRedirects: /);
  });
});

describe('answers', () => {
  it('returns status, headers and body of any status, and HEAD answers without a body', async () => {
    const notFound = response(
      await send({ url: loopback.network.url('api.example.test', '/status?code=404') }),
    );
    expect(notFound).toMatchObject({ status: 404, truncated: false, redirects: 0 });
    expect(notFound.body.toString()).toBe('status 404');

    const head = response(
      await send({ method: 'head', url: loopback.network.url('api.example.test', '/hello') }),
    );
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it('sends a User-Agent unless the caller sets one', async () => {
    const echoed = (result: HttpResult) => JSON.parse(response(result).body.toString()).headers['user-agent'];
    expect(echoed(await send({ url: loopback.network.url('api.example.test', '/echo') }))).toBe(
      'LeMMing-Desktop',
    );
    expect(
      echoed(
        await send({
          url: loopback.network.url('api.example.test', '/echo'),
          headers: { 'User-Agent': 'mine' },
        }),
      ),
    ).toBe('mine');
  });

  it('uses the production classifier unless told otherwise, which refuses the loopback test servers too', async () => {
    const result = await httpRequest(
      { method: 'GET', url: loopback.network.url(PUBLIC_ADDRESS, '/hello') },
      { allowedHosts: 'any', lookup: tableLookup().lookup },
    );
    expect(failure(result)).toEqual({
      code: 'forbidden_address',
      message: '127.0.0.2 is this computer (loopback); agents may not reach it',
    });
    expect(loopback.guard.attempts).toEqual([]);
  });

  it('reports a refused connection by its code only', async () => {
    const dns = tableLookup({ 'closed.example.test': [PUBLIC_ADDRESS] });
    const result = await send({ url: 'http://closed.example.test:1/' }, { lookup: dns.lookup });
    expect(failure(result)).toEqual({
      code: 'connection_failed',
      message: 'could not get an answer from closed.example.test (ECONNREFUSED)',
    });
  });
});

describe('secrets never come back', () => {
  const SECRET = 'sk-live-4f9a8b7c6d5e';

  it('does not echo a header value, even one that is refused', async () => {
    const result = await send({
      url: loopback.network.url('api.example.test', '/echo'),
      headers: { Authorization: `Bearer ${SECRET}\r\nX: 1` },
    });
    expect(failure(result).message).toBe(
      "header 'Authorization' contains a line break or NUL; a header value must be one line",
    );
  });

  it('redacts secrets a server echoes in the body and in headers', async () => {
    const result = response(
      await send(
        {
          url: loopback.network.url('api.example.test', '/echo'),
          headers: { Authorization: `Bearer ${SECRET}` },
        },
        { secretValues: [SECRET] },
      ),
    );
    const text = result.body.toString();
    expect(text).not.toContain(SECRET);
    expect(JSON.parse(text).headers.authorization).toBe('Bearer [REDACTED]');
  });

  it('drops the start of a secret cut in half by the byte cap', async () => {
    const url = loopback.network.url('api.example.test', '/echo');
    const full = response(await send({ url, headers: { 'X-Z': SECRET } }));
    const cut = full.body.toString().indexOf(SECRET) + 10;

    const result = response(
      await send({ url, headers: { 'X-Z': SECRET } }, { secretValues: [SECRET], maxResponseBytes: cut }),
    );
    expect(result.truncated).toBe(true);
    expect(result.body.toString()).not.toContain(SECRET.slice(0, 10));
    expect(result.body.toString().endsWith('"x-z":"')).toBe(true);
  });

  it('redacts secrets in the final URL and leaves query strings out of error messages', async () => {
    const ok = response(
      await send(
        { url: loopback.network.url('api.example.test', `/hello?key=${SECRET}`) },
        { secretValues: [SECRET] },
      ),
    );
    expect(ok.url).toBe(loopback.network.url('api.example.test', '/hello?key=[REDACTED]'));

    const refusedHop = await send(
      { url: redirect(`http://127.0.0.1:${loopback.network.port}/x?token=${SECRET}`) },
      { secretValues: [] },
    );
    expect(failure(refusedHop).message).toContain(
      `redirect 1 to http://127.0.0.1:${loopback.network.port}/x?…:`,
    );
    expect(failure(refusedHop).message).not.toContain(SECRET);
  });

  it('redacts a secret wherever it lands in a message', async () => {
    const result = await send({ url: `http://${SECRET}.example.test/` }, { secretValues: [SECRET] });
    expect(failure(result).message).toBe('could not resolve [REDACTED].example.test (ENOTFOUND)');
  });
});

describe('TLS through a pinned address', () => {
  const secureUrl = (host: string) => `https://${host}:${loopback.network.securePort}/hello`;

  it('connects to the checked IP while verifying the certificate for the host name', async () => {
    const result = response(
      await send({ url: secureUrl('secure.example.test') }, { trustedCertificates: [TEST_CA_CERTIFICATE] }),
    );

    expect(result.body.toString()).toBe(`hello from ${PUBLIC_ADDRESS}`);
    expect(loopback.guard.attempts).toEqual([
      { host: PUBLIC_ADDRESS, port: loopback.network.securePort, tls: true },
    ]);
  });

  it('refuses a certificate that is not for the host name, though the IP is the same', async () => {
    const result = await send(
      { url: secureUrl('wrong-name.example.test') },
      { trustedCertificates: [TEST_CA_CERTIFICATE] },
    );
    expect(failure(result)).toMatchObject({ code: 'connection_failed' });
    expect(failure(result).message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });

  it('refuses a certificate from an untrusted authority', async () => {
    const result = await send({ url: secureUrl('secure.example.test') });
    expect(failure(result).message).toBe(
      'could not get an answer from secure.example.test (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    );
  });
});

const SECRET_IN_BODY = 'sk-body-secret-5e0c2a91';

/** A POST that carries SECRET_IN_BODY as a secret value of the call. */
function sendBody(request: Partial<HttpRequest> & { url: string }): Promise<HttpResult> {
  return send(
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, ...request },
    { secretValues: [SECRET_IN_BODY] },
  );
}

/** Issue 10, escape 5: the body of a 307/308 is resent as is, and a secret in it must not follow to another origin. */
describe('a request body that carries a secret, redirected with 307 or 308', () => {
  for (const status of [307, 308]) {
    it(`is not resent to another origin on ${status}: the call fails and says why`, async () => {
      const result = await sendBody({
        url: redirect(loopback.network.url('other.example.test', '/echo'), status),
        body: JSON.stringify({ order: 1, key: SECRET_IN_BODY }),
      });
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'invalid_redirect',
          message: `redirect 1 to ${loopback.network.url('other.example.test', '/echo')}: the server asked to send the request again, body and all, to another site (${status}); the body carries a secret, so it was not sent`,
        },
      });
      expect(loopback.network.otherServer.requests).toEqual([]);
      expect(JSON.stringify(result)).not.toContain(SECRET_IN_BODY);
    });
  }

  it('is resent on the same origin, where the secret was meant to go', async () => {
    const result = await sendBody({
      url: redirect('/echo', 307),
      body: JSON.stringify({ key: SECRET_IN_BODY }),
    });
    expect(result.ok && JSON.parse(result.value.body.toString()).method).toBe('POST');
    expect(loopback.network.publicServer.requests.at(-1)?.body).toBe(JSON.stringify({ key: SECRET_IN_BODY }));
  });

  it('a body without a secret still follows to another origin', async () => {
    const result = await sendBody({
      url: redirect(loopback.network.url('other.example.test', '/echo'), 308),
      body: '{"order":1}',
    });
    expect(result.ok).toBe(true);
    expect(loopback.network.otherServer.requests[0]?.body).toBe('{"order":1}');
  });

  it('a percent-encoded secret in a form body counts too', async () => {
    const result = await sendBody({
      url: redirect(loopback.network.url('other.example.test', '/echo'), 307),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: `${SECRET_IN_BODY} +/` }).toString(),
    });
    expect(result.ok).toBe(false);
    expect(loopback.network.otherServer.requests).toEqual([]);
  });
});
