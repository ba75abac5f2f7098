import { describe, expect, it } from 'vitest';
import type { HttpErrorCode } from './http-error';
import { httpRequest, type HttpRequestOptions } from './http-request';
import {
  OTHER_PUBLIC_ADDRESS,
  PRIVATE_SERVICE_ADDRESS,
  PUBLIC_ADDRESS,
  tableLookup,
  testClassifier,
} from './test-support/loopback-network';
import { guardedLoopbackNetwork } from './test-support/guarded-loopback-network';

/** The attack classes of docs/ARCHITECTURE.md, “Tools” this table covers (template injection belongs to composed tools). */
type AttackClass =
  | 'numeric IP spelling'
  | 'IPv6 form'
  | 'DNS name to internal address'
  | 'redirect to internal address'
  | 'userinfo trick'
  | 'scheme trick'
  | 'wildcard edge case'
  | 'header injection'
  | 'named private host opt-in'
  | 'request size';

interface SsrfCase {
  attack: AttackClass;
  name: string;
  /** `{P}` is the shared port every loopback server listens on. */
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  allowedHosts?: 'any' | string[];
  allowPrivateHosts?: string[];
  /** `allowed`: the request succeeds with a 200. Otherwise the code it must be refused with. */
  expect: 'allowed' | HttpErrorCode;
  /** Addresses the request may connect to; refusals default to none, allowed cases to the public server. */
  reaches?: string[];
  /** Host names the resolver may be asked about; defaults to any. */
  resolves?: string[];
}

const redirectTo = (to: string, status = 302) =>
  `http://api.example.test:{P}/redirect?to=${encodeURIComponent(to)}&status=${status}`;

// One row per case reads as a table; prettier would spread each over several lines.
// prettier-ignore
const CASES: SsrfCase[] = [
  // Numeric spellings: the WHATWG parser normalises them to a dotted quad, which is then classified.
  { attack: 'numeric IP spelling', name: 'plain loopback', url: 'http://127.0.0.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'decimal 2130706433', url: 'http://2130706433:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'octal 017700000001', url: 'http://017700000001:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'hex 0x7f000001', url: 'http://0x7f000001:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'hex short 0x7f.1', url: 'http://0x7f.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'short 127.1', url: 'http://127.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'three parts 127.0.1', url: 'http://127.0.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'octal dotted 0177.0.0.1', url: 'http://0177.0.0.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'zero-padded 127.000.000.001', url: 'http://127.000.000.001:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'percent-encoded digits', url: 'http://%31%32%37.0.0.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'full-width digits', url: 'http://１２７.０.０.１:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'bare 0 (0.0.0.0)', url: 'http://0:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'unspecified 0.0.0.0', url: 'http://0.0.0.0:{P}/hello', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'metadata as decimal 2852039166', url: 'http://2852039166/latest/meta-data/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'metadata as hex 0xa9fea9fe', url: 'http://0xa9fea9fe/latest/meta-data/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'metadata as octal dotted', url: 'http://0251.0376.0251.0376/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'private 10/8', url: 'http://10.0.0.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'private 172.16/12', url: 'http://172.16.0.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'private 192.168/16', url: 'http://192.168.1.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'CGNAT 100.64/10', url: 'http://100.64.0.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'benchmark 198.18/15', url: 'http://198.18.0.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'multicast 224.0.0.1', url: 'http://224.0.0.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'broadcast', url: 'http://255.255.255.255/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'IETF reserved 192.0.0.8', url: 'http://192.0.0.8/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'class E 240.0.0.1', url: 'http://240.0.0.1/', expect: 'forbidden_address' },
  { attack: 'numeric IP spelling', name: 'a public IP literal is fine', url: `http://${PUBLIC_ADDRESS}:{P}/hello`, expect: 'allowed' },

  // IPv6 forms, including IPv4 carried inside IPv6.
  { attack: 'IPv6 form', name: 'loopback ::1', url: 'http://[::1]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'loopback written out', url: 'http://[0:0:0:0:0:0:0:1]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'unspecified ::', url: 'http://[::]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'IPv4-mapped dotted', url: 'http://[::ffff:127.0.0.1]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'IPv4-mapped hex', url: 'http://[::ffff:7f00:1]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'IPv4-compatible ::127.0.0.1', url: 'http://[::127.0.0.1]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'IPv4-translated ::ffff:0:127.0.0.1', url: 'http://[::ffff:0:7f00:1]:{P}/hello', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'NAT64 of metadata', url: 'http://[64:ff9b::a9fe:a9fe]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'NAT64 of 10.0.0.1', url: 'http://[64:ff9b::10.0.0.1]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'local-use NAT64 64:ff9b:1::/48', url: 'http://[64:ff9b:1::a00:1]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: '6to4 of metadata', url: 'http://[2002:a9fe:a9fe::]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: '6to4 of loopback', url: 'http://[2002:7f00:1::1]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'Teredo whose client is 127.0.0.1', url: 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'ISATAP carrying metadata', url: 'http://[2600:1f18::5efe:a9fe:a9fe]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'link-local fe80::1', url: 'http://[fe80::1]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'unique-local fc00::1', url: 'http://[fc00::1]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'AWS metadata fd00:ec2::254', url: 'http://[fd00:ec2::254]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'multicast ff02::1', url: 'http://[ff02::1]/', expect: 'forbidden_address' },
  { attack: 'IPv6 form', name: 'deprecated site-local fec0::1', url: 'http://[fec0::1]/', expect: 'forbidden_address' },

  // Names whose DNS answers are internal; `localhost` is refused without asking DNS at all.
  { attack: 'DNS name to internal address', name: 'name to 127.0.0.1', url: 'http://loop.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to 10.0.0.5', url: 'http://internal.example.test/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to cloud metadata', url: 'http://metadata.example.test/latest/meta-data/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to CGNAT', url: 'http://cgnat.example.test/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to a fake-IP range', url: 'http://fakeip.example.test/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'one good and one internal answer', url: 'http://mixed.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to IPv4-mapped loopback', url: 'http://mapped.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to NAT64 metadata', url: 'http://nat64.example.test/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to unique-local IPv6', url: 'http://ula.example.test/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'name to 0.0.0.0', url: 'http://zero.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'resolver answer that is not a canonical IP', url: 'http://bogus-answer.example.test:{P}/', expect: 'forbidden_address' },
  { attack: 'DNS name to internal address', name: 'localhost (no DNS asked)', url: 'http://localhost:{P}/hello', expect: 'forbidden_address', resolves: [] },
  { attack: 'DNS name to internal address', name: 'subdomain of localhost', url: 'http://db.localhost:{P}/hello', expect: 'forbidden_address', resolves: [] },
  { attack: 'DNS name to internal address', name: 'localhost with a trailing dot', url: 'http://localhost.:{P}/hello', expect: 'forbidden_address', resolves: [] },
  { attack: 'DNS name to internal address', name: 'unknown name', url: 'http://nowhere.example.test/', expect: 'dns_failed' },
  { attack: 'DNS name to internal address', name: 'name with no addresses', url: 'http://empty.example.test/', expect: 'dns_failed' },
  { attack: 'DNS name to internal address', name: 'a public name is fine', url: 'http://api.example.test:{P}/hello', expect: 'allowed' },
  { attack: 'DNS name to internal address', name: 'upper case and a trailing dot', url: 'http://API.Example.TEST.:{P}/hello', expect: 'allowed' },

  // Redirects: the first hop is allowed; the hop to an internal address is refused before connecting.
  { attack: 'redirect to internal address', name: 'to 127.0.0.1', url: redirectTo('http://127.0.0.1:{P}/hello'), expect: 'forbidden_address', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to a name resolving to loopback', url: redirectTo('http://loop.example.test:{P}/hello'), expect: 'forbidden_address', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to IPv4-mapped loopback', url: redirectTo('http://[::ffff:127.0.0.1]:{P}/hello'), expect: 'forbidden_address', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to decimal loopback, 307', url: redirectTo('http://2130706433:{P}/hello', 307), expect: 'forbidden_address', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to cloud metadata, 301', url: redirectTo('http://169.254.169.254/latest/meta-data/', 301), expect: 'forbidden_address', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to localhost, 308', url: redirectTo('http://localhost:{P}/hello', 308), expect: 'forbidden_address', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to file:', url: redirectTo('file:///etc/passwd'), expect: 'unsupported_scheme', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to a URL with credentials', url: redirectTo('http://user:pw@api.example.test:{P}/hello'), expect: 'credentials_in_url', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'to a host outside allowed_hosts', url: redirectTo('http://other.example.test:{P}/hello'), allowedHosts: ['api.example.test'], expect: 'host_not_allowed', reaches: [PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'a relative redirect is followed', url: redirectTo('/hello'), expect: 'allowed', reaches: [PUBLIC_ADDRESS, PUBLIC_ADDRESS] },
  { attack: 'redirect to internal address', name: 'a redirect to another public origin is followed', url: redirectTo('http://other.example.test:{P}/hello'), expect: 'allowed', reaches: [PUBLIC_ADDRESS, OTHER_PUBLIC_ADDRESS] },

  // userinfo: any credentials are refused; parser-differential spellings land on the host WHATWG sees.
  { attack: 'userinfo trick', name: 'good@evil', url: 'http://api.example.test@127.0.0.1:{P}/hello', expect: 'credentials_in_url' },
  { attack: 'userinfo trick', name: 'user:password@', url: 'http://user:secret@api.example.test:{P}/hello', expect: 'credentials_in_url' },
  { attack: 'userinfo trick', name: 'host:port@evil', url: 'http://api.example.test:{P}@127.0.0.1:{P}/hello', expect: 'credentials_in_url' },
  { attack: 'userinfo trick', name: 'percent-encoded @ in userinfo', url: 'http://api.example.test%40x@127.0.0.1:{P}/', expect: 'credentials_in_url' },
  { attack: 'userinfo trick', name: 'backslash before @ (WHATWG host is 127.0.0.1)', url: 'http://127.0.0.1:{P}\\@api.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'userinfo trick', name: '#@ fragment trick', url: 'http://127.0.0.1:{P}#@api.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'userinfo trick', name: '?@ query trick', url: 'http://127.0.0.1:{P}?@api.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'userinfo trick', name: 'empty userinfo carries nothing', url: 'http://@api.example.test:{P}/hello', expect: 'allowed' },

  // Schemes: http and https only, in any letter case.
  { attack: 'scheme trick', name: 'file:', url: 'file:///etc/passwd', expect: 'unsupported_scheme' },
  { attack: 'scheme trick', name: 'gopher: smuggling', url: 'gopher://api.example.test:{P}/_GET%20/hello', expect: 'unsupported_scheme' },
  { attack: 'scheme trick', name: 'javascript:', url: 'javascript:alert(1)', expect: 'unsupported_scheme' },
  { attack: 'scheme trick', name: 'data:', url: 'data:text/plain,hello', expect: 'unsupported_scheme' },
  { attack: 'scheme trick', name: 'ftp:', url: 'ftp://api.example.test/', expect: 'unsupported_scheme' },
  { attack: 'scheme trick', name: 'ws:', url: 'ws://api.example.test:{P}/', expect: 'unsupported_scheme' },
  { attack: 'scheme trick', name: 'scheme-relative URL', url: '//api.example.test:{P}/hello', expect: 'invalid_url' },
  { attack: 'scheme trick', name: 'no scheme at all', url: 'api.example.test/hello', expect: 'invalid_url' },
  { attack: 'scheme trick', name: 'http:/\\ slashes (host is 127.0.0.1)', url: 'http:/\\127.0.0.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'scheme trick', name: 'leading spaces are trimmed, then checked', url: '  http://127.0.0.1:{P}/hello', expect: 'forbidden_address' },
  { attack: 'scheme trick', name: 'upper-case HTTP: is http', url: 'HTTP://api.example.test:{P}/hello', expect: 'allowed' },

  // allowed_hosts: `*.x` matches subdomains only; case, trailing dots, IDN and ports are normalised.
  { attack: 'wildcard edge case', name: '*.example.test allows a subdomain', url: 'http://api.example.test:{P}/hello', allowedHosts: ['*.example.test'], expect: 'allowed' },
  { attack: 'wildcard edge case', name: '*.example.test allows a deep subdomain', url: 'http://deep.api.example.test:{P}/hello', allowedHosts: ['*.example.test'], expect: 'allowed' },
  { attack: 'wildcard edge case', name: '*.example.test refuses the apex', url: 'http://example.test:{P}/hello', allowedHosts: ['*.example.test'], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: '*.example.test refuses evilexample.test', url: 'http://evilexample.test:{P}/hello', allowedHosts: ['*.example.test'], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: 'suffix appended after the allowed name', url: 'http://api.example.test.evil.test:{P}/hello', allowedHosts: ['api.example.test'], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: 'percent-encoded dot in the host', url: 'http://api.example.test%2eevil.test:{P}/hello', allowedHosts: ['api.example.test'], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: 'case and trailing dot still match', url: 'http://API.EXAMPLE.TEST.:{P}/hello', allowedHosts: ['*.example.test'], expect: 'allowed' },
  { attack: 'wildcard edge case', name: 'IDN pattern matches the punycode host', url: 'http://shop.bücher.test:{P}/hello', allowedHosts: ['*.bücher.test'], expect: 'allowed' },
  { attack: 'wildcard edge case', name: 'punycode pattern matches the unicode host', url: 'http://shop.xn--bcher-kva.test:{P}/hello', allowedHosts: ['*.xn--bcher-kva.test'], expect: 'allowed' },
  { attack: 'wildcard edge case', name: 'host:port pattern refuses another port', url: 'http://api.example.test:{P}/hello', allowedHosts: ['api.example.test:1'], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: 'host:port pattern allows its port', url: 'http://api.example.test:{P}/hello', allowedHosts: ['api.example.test:{P}'], expect: 'allowed' },
  { attack: 'wildcard edge case', name: "an allowed name does not allow its IP", url: `http://${PUBLIC_ADDRESS}:{P}/hello`, allowedHosts: ['api.example.test'], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: 'empty allowlist allows nothing', url: 'http://api.example.test:{P}/hello', allowedHosts: [], expect: 'host_not_allowed' },
  { attack: 'wildcard edge case', name: "a bare '*' pattern is rejected", url: 'http://api.example.test:{P}/hello', allowedHosts: ['*'], expect: 'invalid_options' },

  // Header and method injection: refused before anything is sent, with nothing of the value echoed.
  { attack: 'header injection', name: 'CRLF in a value', url: 'http://api.example.test:{P}/echo', headers: { 'X-Note': 'a\r\nHost: 127.0.0.1' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'LF alone in a value', url: 'http://api.example.test:{P}/echo', headers: { 'X-Note': 'a\nX-Injected: 1' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'NUL in a value', url: 'http://api.example.test:{P}/echo', headers: { 'X-Note': 'a\u0000b' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'CRLF in a name', url: 'http://api.example.test:{P}/echo', headers: { 'X-A\r\nX-B': '1' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'Host override', url: 'http://api.example.test:{P}/echo', headers: { Host: 'internal.example.test' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'Transfer-Encoding smuggling', url: 'http://api.example.test:{P}/echo', method: 'POST', body: 'x', headers: { 'Transfer-Encoding': 'chunked' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'Content-Length smuggling', url: 'http://api.example.test:{P}/echo', method: 'POST', body: 'x', headers: { 'content-length': '0' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'Connection hop-by-hop', url: 'http://api.example.test:{P}/echo', headers: { Connection: 'close, X-Api-Key' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'same header twice in different case', url: 'http://api.example.test:{P}/echo', headers: { 'X-Id': '1', 'x-id': '2' }, expect: 'invalid_header' },
  { attack: 'header injection', name: 'request line in the method', url: 'http://api.example.test:{P}/echo', method: 'GET /admin HTTP/1.1\r\nX:', expect: 'invalid_method' },
  { attack: 'header injection', name: 'TRACE', url: 'http://api.example.test:{P}/echo', method: 'TRACE', expect: 'invalid_method' },
  { attack: 'header injection', name: 'CONNECT', url: 'http://api.example.test:{P}/echo', method: 'CONNECT', expect: 'invalid_method' },
  { attack: 'header injection', name: 'ordinary headers pass', url: 'http://api.example.test:{P}/hello', headers: { 'X-Trace': 'abc\tdef', Accept: 'text/plain' }, expect: 'allowed' },

  // The explicit opt-in for named private hosts: exact names only, never link-local.
  { attack: 'named private host opt-in', name: 'opted-in name reaches its private address', url: 'http://ollama.example.test:{P}/hello', allowPrivateHosts: ['ollama.example.test'], expect: 'allowed', reaches: [PRIVATE_SERVICE_ADDRESS] },
  { attack: 'named private host opt-in', name: 'opted-in localhost', url: 'http://localhost:{P}/hello', allowPrivateHosts: ['localhost'], expect: 'allowed', reaches: [PRIVATE_SERVICE_ADDRESS] },
  { attack: 'named private host opt-in', name: 'without the opt-in the same name is refused', url: 'http://ollama.example.test:{P}/hello', expect: 'forbidden_address' },
  { attack: 'named private host opt-in', name: 'an opted-in IP literal reaches itself', url: `http://${PRIVATE_SERVICE_ADDRESS}:{P}/hello`, allowPrivateHosts: [PRIVATE_SERVICE_ADDRESS], expect: 'allowed', reaches: [PRIVATE_SERVICE_ADDRESS] },
  { attack: 'named private host opt-in', name: 'the opt-in does not cover the IP literal', url: `http://${PRIVATE_SERVICE_ADDRESS}:{P}/hello`, allowPrivateHosts: ['ollama.example.test'], expect: 'forbidden_address' },
  { attack: 'named private host opt-in', name: 'the opt-in does not cover other names', url: 'http://loop.example.test:{P}/hello', allowPrivateHosts: ['ollama.example.test'], expect: 'forbidden_address' },
  { attack: 'named private host opt-in', name: 'the opt-in never reaches link-local', url: 'http://printer.example.test/', allowPrivateHosts: ['printer.example.test'], expect: 'forbidden_address' },
  { attack: 'named private host opt-in', name: 'the opt-in still needs allowed_hosts', url: 'http://ollama.example.test:{P}/hello', allowPrivateHosts: ['ollama.example.test'], allowedHosts: ['api.example.test'], expect: 'host_not_allowed' },
  { attack: 'named private host opt-in', name: 'a wildcard opt-in is rejected', url: 'http://ollama.example.test:{P}/hello', allowPrivateHosts: ['*.example.test'], expect: 'invalid_options' },

  { attack: 'request size', name: 'a body over the request limit', url: 'http://api.example.test:{P}/echo', method: 'POST', body: 'x'.repeat(2049), expect: 'request_too_large' },
  { attack: 'request size', name: 'a body on a GET', url: 'http://api.example.test:{P}/echo', method: 'GET', body: 'x', expect: 'invalid_body' },
];

const loopback = guardedLoopbackNetwork();

const withPort = (text: string) =>
  text
    .replaceAll('{P}', String(loopback.network.port))
    .replaceAll(encodeURIComponent('{P}'), String(loopback.network.port));

describe('http_request refuses every SSRF attack class before connecting, and lets ordinary requests through', () => {
  it('has at least 60 cases, covering every attack class', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(CASES.map((testCase) => testCase.attack)).size).toBe(10);
  });

  it.each(CASES.map((testCase) => [`${testCase.attack}: ${testCase.name}`, testCase] as const))(
    '%s',
    async (_, testCase) => {
      const dns = tableLookup();
      const options: HttpRequestOptions = {
        allowedHosts: Array.isArray(testCase.allowedHosts) ? testCase.allowedHosts.map(withPort) : 'any',
        allowPrivateHosts: testCase.allowPrivateHosts ?? [],
        lookup: dns.lookup,
        classifyAddress: testClassifier,
        maxRequestBytes: 2048,
        deadlineMs: 10_000,
      };
      const result = await httpRequest(
        {
          method: testCase.method ?? 'GET',
          url: withPort(testCase.url),
          ...(testCase.headers ? { headers: testCase.headers } : {}),
          ...(testCase.body !== undefined ? { body: testCase.body } : {}),
        },
        options,
      );

      if (testCase.expect === 'allowed') {
        expect(result.ok ? result.value.status : result.error).toBe(200);
      } else {
        expect(result.ok ? `answered ${result.value.status}` : result.error.code).toBe(testCase.expect);
      }
      const reaches = testCase.reaches ?? (testCase.expect === 'allowed' ? [PUBLIC_ADDRESS] : []);
      expect(loopback.guard.violations).toEqual([]);
      expect(loopback.guard.attempts.map((attempt) => attempt.host)).toEqual(reaches);
      expect(loopback.network.forbiddenServer.connections).toBe(0);
      expect(loopback.network.forbiddenServer.requests).toEqual([]);
      if (testCase.resolves) expect(dns.calls).toEqual(testCase.resolves);
    },
  );
});
