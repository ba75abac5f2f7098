import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, type HttpRequest, type HttpResult } from './http-request';
import {
  guardConnections,
  startLoopbackNetwork,
  tableLookup,
  testClassifier,
  type ConnectionGuard,
  type LoopbackNetwork,
} from './test-support/loopback-network';

const SECRET = 'sk-body-secret-5e0c2a91';

let network: LoopbackNetwork;
let guard: ConnectionGuard;
beforeAll(async () => {
  network = await startLoopbackNetwork();
  guard = guardConnections();
});
afterAll(async () => {
  guard.restore();
  await network.close();
});
afterEach(() => {
  expect(guard.violations).toEqual([]);
  network.reset();
});

function send(request: Partial<HttpRequest> & { url: string }): Promise<HttpResult> {
  return httpRequest(
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, ...request },
    {
      allowedHosts: 'any',
      lookup: tableLookup().lookup,
      classifyAddress: testClassifier,
      deadlineMs: 10_000,
      secretValues: [SECRET],
    },
  );
}

const redirect = (to: string, status: number) =>
  network.url('api.example.test', `/redirect?to=${encodeURIComponent(to)}&status=${status}`);

/** Issue 10, escape 5: the body of a 307/308 is resent as is, and a secret in it must not follow to another origin. */
describe('a request body that carries a secret, redirected with 307 or 308', () => {
  for (const status of [307, 308]) {
    it(`is not resent to another origin on ${status}: the call fails and says why`, async () => {
      const result = await send({
        url: redirect(network.url('other.example.test', '/echo'), status),
        body: JSON.stringify({ order: 1, key: SECRET }),
      });
      expect(result).toEqual({
        ok: false,
        error: {
          code: 'invalid_redirect',
          message: `redirect 1 to ${network.url('other.example.test', '/echo')}: the server asked to send the request again, body and all, to another site (${status}); the body carries a secret, so it was not sent`,
        },
      });
      expect(network.otherServer.requests).toEqual([]);
      expect(JSON.stringify(result)).not.toContain(SECRET);
    });
  }

  it('is resent on the same origin, where the secret was meant to go', async () => {
    const result = await send({ url: redirect('/echo', 307), body: JSON.stringify({ key: SECRET }) });
    expect(result.ok && JSON.parse(result.response.body.toString()).method).toBe('POST');
    expect(network.publicServer.requests.at(-1)?.body).toBe(JSON.stringify({ key: SECRET }));
  });

  it('a body without a secret still follows to another origin', async () => {
    const result = await send({ url: redirect(network.url('other.example.test', '/echo'), 308), body: '{"order":1}' });
    expect(result.ok).toBe(true);
    expect(network.otherServer.requests[0]?.body).toBe('{"order":1}');
  });

  it('a percent-encoded secret in a form body counts too', async () => {
    const result = await send({
      url: redirect(network.url('other.example.test', '/echo'), 307),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key: `${SECRET} +/` }).toString(),
    });
    expect(result.ok).toBe(false);
    expect(network.otherServer.requests).toEqual([]);
  });
});
