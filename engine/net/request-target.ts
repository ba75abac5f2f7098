import { isIP } from 'node:net';
import {
  describeVerdict,
  isCanonicalIp,
  isReachable,
  verdictPredicate,
  type AddressClassifier,
} from './address-policy';
import { checked, errorCodeSuffix, refused, type Checked } from './http-error';
import type { HostLookup } from './host-lookup';
import { matchesAnyHostPattern, normalizeHost, type HostPattern } from './host-patterns';

/** Where requests may go: hosts the org allows, and the named hosts it lets reach private networks. */
export interface TargetPolicy {
  allowedHosts: 'any' | readonly HostPattern[];
  privateHosts: readonly HostPattern[];
}

/** A URL that passed every check that needs no DNS. */
export interface RequestTarget {
  url: URL;
  /** Normalised (see normalizeHost). */
  host: string;
  port: number;
  isIpLiteral: boolean;
  /** The org named this host in allowPrivateHosts. */
  privateOptIn: boolean;
}

/** The one address the connection is pinned to, after every address of the host was checked. */
export interface Destination {
  address: string;
  family: 4 | 6;
}

export function parseTargetUrl(text: string, base?: URL): Checked<URL> {
  try {
    return checked(new URL(text, base));
  } catch {
    return refused('invalid_url', base ? 'is not a valid URL' : 'is not a valid absolute URL');
  }
}

export function checkTarget(url: URL, policy: TargetPolicy): Checked<RequestTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return refused('unsupported_scheme', `only http and https are allowed, not ${url.protocol.slice(0, 20)}`);
  if (url.username !== '' || url.password !== '')
    return refused('credentials_in_url', 'credentials in the URL are refused; send them in a header');
  const host = normalizeHost(url.hostname);
  if (host === '') return refused('invalid_url', 'the URL has no host');
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (policy.allowedHosts !== 'any' && !matchesAnyHostPattern(policy.allowedHosts, host, port))
    return refused('host_not_allowed', `${host} (port ${port}) is not in the allowed hosts`);
  const privateOptIn = matchesAnyHostPattern(policy.privateHosts, host, port);
  const isIpLiteral = isCanonicalIp(host);
  if (!isIpLiteral && !privateOptIn && (host === 'localhost' || host.endsWith('.localhost')))
    return refused('forbidden_address', `${host} always names this computer`);
  return checked({ url, host, port, isIpLiteral, privateOptIn });
}

/**
 * Resolves the target once and checks every address it has: a host with one forbidden address
 * is refused whole, so a resolver cannot pick the bad one later. IP literals skip DNS.
 */
export async function resolveDestination(
  target: RequestTarget,
  lookup: HostLookup,
  classify: AddressClassifier,
  signal: AbortSignal,
): Promise<Checked<Destination>> {
  let addresses: string[];
  if (target.isIpLiteral) addresses = [target.host];
  else {
    const answers = await untilAborted(
      Promise.resolve().then(() => lookup(target.host)),
      signal,
    ).then(
      (value) => checked(value),
      (error: unknown) => refused('dns_failed', `could not resolve ${target.host}${errorCodeSuffix(error)}`),
    );
    if (!answers.ok) return answers;
    addresses = answers.value.map((answer) => answer.address);
    if (addresses.length === 0) return refused('dns_failed', `${target.host} has no addresses`);
  }
  for (const address of addresses) {
    const verdict = classify(address);
    if (!isReachable(verdict, target.privateOptIn)) {
      const what = target.isIpLiteral
        ? describeVerdict(verdict)
        : `${target.host} resolves to ${verdict.address}, which ${verdictPredicate(verdict)}`;
      return refused('forbidden_address', `${what}; agents may not reach it`);
    }
  }
  // Prefer IPv4: many desktops have an IPv6 address but no working IPv6 route.
  const pinned = addresses.find((address) => isIP(address) === 4) ?? addresses[0];
  if (pinned === undefined) return refused('dns_failed', `${target.host} has no addresses`);
  return checked({ address: pinned, family: isIP(pinned) === 4 ? 4 : 6 });
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
