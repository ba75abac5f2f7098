import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/**
 * What kind of address an IP is, as far as an agent's request is concerned. Only `public` may be
 * reached without an opt-in; everything else is some network the computer sits in, or nowhere.
 */
export const AddressClass = z.enum([
  'public',
  'private',
  'loopback',
  'link_local',
  'unique_local',
  'carrier_grade_nat',
  'benchmark',
  'reserved',
  'multicast',
  'unspecified',
  'broadcast',
  'not_an_ip',
]);
export type AddressClass = z.infer<typeof AddressClass>;

/** The ways an IPv6 address can carry an IPv4 address that a router or the OS may end up reaching. */
export const Ipv4Embedding = z.enum([
  'ipv4_mapped',
  'ipv4_translated',
  'ipv4_compatible',
  'nat64',
  '6to4',
  'teredo',
  'isatap',
]);
export type Ipv4Embedding = z.infer<typeof Ipv4Embedding>;

export interface AddressVerdict {
  address: string;
  class: AddressClass;
  /** Set when the class was decided by an IPv4 address inside an IPv6 one. */
  embedded?: { via: Ipv4Embedding; ipv4: string };
}

export type AddressClassifier = (address: string) => AddressVerdict;

/**
 * Classes a host the org names explicitly (`allowPrivateHosts`) may resolve to: the user's own
 * machine and networks. Link-local stays refused because cloud metadata services live there, and
 * the "nowhere" classes (reserved, multicast, unspecified, broadcast) are never a real service.
 */
const OPT_IN_CLASSES: ReadonlySet<AddressClass> = new Set([
  'private',
  'loopback',
  'unique_local',
  'carrier_grade_nat',
  'benchmark',
]);

export function isReachable(verdict: AddressVerdict, privateHostOptIn: boolean): boolean {
  return verdict.class === 'public' || (privateHostOptIn && OPT_IN_CLASSES.has(verdict.class));
}

const DESCRIPTIONS: Record<AddressClass, string> = {
  public: 'a public address',
  private: 'a private network address',
  loopback: 'this computer (loopback)',
  link_local: 'a link-local address (where cloud metadata services live)',
  unique_local: 'a unique-local IPv6 address (a private network)',
  carrier_grade_nat: 'a carrier-grade NAT address (a provider-internal network)',
  benchmark: 'a benchmarking address (198.18.0.0/15, used by fake-IP VPNs)',
  reserved: 'a reserved, non-global address',
  multicast: 'a multicast address',
  unspecified: 'the unspecified address (this computer)',
  broadcast: 'the broadcast address',
  not_an_ip: 'not a canonical IP address',
};

/** "is a private network address", or "embeds 10.0.0.1 (nat64), which is a private network address". */
export function verdictPredicate(verdict: AddressVerdict): string {
  const what = DESCRIPTIONS[verdict.class];
  return verdict.embedded
    ? `embeds ${verdict.embedded.ipv4} (${verdict.embedded.via.replace('_', ' ')}), which is ${what}`
    : `is ${what}`;
}

export function describeVerdict(verdict: AddressVerdict): string {
  return `${verdict.address} ${verdictPredicate(verdict)}`;
}

/**
 * True for the spellings a resolver or a normalised URL host produces: dotted-quad IPv4 without
 * leading zeros, and IPv6 (optionally with a zone). `127.1`, `0x7f.0.0.1`, `2130706433` and
 * `0177.0.0.1` are not IPs here; URL hosts reach this already normalised by the WHATWG parser.
 */
export function isCanonicalIp(text: string): boolean {
  return isIP(text) !== 0;
}

/** The production classifier: every address that is not globally routable unicast is refused. */
export const classifyAddress: AddressClassifier = (address) => {
  if (!isCanonicalIp(address)) return { address, class: 'not_an_ip' };
  return isIP(address) === 4
    ? { address, class: classifyIpv4(ipaddr.IPv4.parse(address)) }
    : classifyIpv6(address, ipaddr.IPv6.parse(canonicalIpv6(address)));
};

/**
 * The hex form of an IPv6 address, without a zone. ipaddr.js reads the deprecated `::a.b.c.d`
 * as IPv4-mapped, unlike the OS (IPv4-compatible), so it only ever sees the WHATWG serialisation.
 */
function canonicalIpv6(address: string): string {
  const withoutZone = address.replace(/%.*$/, '');
  return new URL(`http://[${withoutZone}]/`).hostname.slice(1, -1);
}

const BENCHMARK_V4 = ipaddr.IPv4.parseCIDR('198.18.0.0/15');
const LOCAL_USE_NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

function classifyIpv4(ip: ipaddr.IPv4): AddressClass {
  if (ip.match(BENCHMARK_V4)) return 'benchmark';
  switch (ip.range()) {
    case 'unicast':
      return 'public';
    case 'unspecified':
      return 'unspecified';
    case 'broadcast':
      return 'broadcast';
    case 'multicast':
      return 'multicast';
    case 'linkLocal':
      return 'link_local';
    case 'loopback':
      return 'loopback';
    case 'carrierGradeNat':
      return 'carrier_grade_nat';
    case 'private':
      return 'private';
    default:
      return 'reserved';
  }
}

function classifyIpv6(address: string, ip: ipaddr.IPv6): AddressVerdict {
  const parts = ip.parts;
  const word = (index: number): number => parts[index] ?? 0;
  const ipv4At = (high: number, low: number): ipaddr.IPv4 =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const embedded = (via: Ipv4Embedding, ipv4: ipaddr.IPv4): AddressVerdict => ({
    address,
    class: classifyIpv4(ipv4),
    embedded: { via, ipv4: ipv4.toString() },
  });
  const lastIpv4 = () => ipv4At(word(6), word(7));

  switch (ip.range()) {
    case 'unspecified':
      return { address, class: 'unspecified' };
    case 'loopback':
      return { address, class: 'loopback' };
    case 'multicast':
      return { address, class: 'multicast' };
    case 'linkLocal':
      return { address, class: 'link_local' };
    case 'uniqueLocal':
      return { address, class: 'unique_local' };
    case 'benchmarking':
      return { address, class: 'benchmark' };
    case 'ipv4Mapped':
      return embedded('ipv4_mapped', lastIpv4());
    case 'rfc6145':
      return embedded('ipv4_translated', lastIpv4());
    case 'rfc6052':
      // The local-use prefix (RFC 8215) is never global, and its IPv4 position depends on a prefix
      // length only the local operator knows.
      return ip.match(LOCAL_USE_NAT64) ? { address, class: 'reserved' } : embedded('nat64', lastIpv4());
    case '6to4':
      return embedded('6to4', ipv4At(word(1), word(2)));
    case 'teredo':
      return worst(
        embedded('teredo', ipv4At(word(6) ^ 0xffff, word(7) ^ 0xffff)),
        embedded('teredo', ipv4At(word(2), word(3))),
      );
    case 'unicast':
      return classifyUnicastIpv6(address, ip, embedded, lastIpv4());
    default:
      return { address, class: 'reserved' };
  }
}

function classifyUnicastIpv6(
  address: string,
  ip: ipaddr.IPv6,
  embedded: (via: Ipv4Embedding, ipv4: ipaddr.IPv4) => AddressVerdict,
  lastIpv4: ipaddr.IPv4,
): AddressVerdict {
  if (ip.parts.slice(0, 6).every((part) => part === 0)) {
    const compatible = embedded('ipv4_compatible', lastIpv4);
    // IPv4-compatible addresses are deprecated and routed nowhere, even around a public IPv4.
    return compatible.class === 'public' ? { address, class: 'reserved' } : compatible;
  }
  if (isIsatap(ip.parts)) {
    const isatap = embedded('isatap', lastIpv4);
    if (isatap.class !== 'public') return isatap;
  }
  return ip.match(GLOBAL_UNICAST_V6) ? { address, class: 'public' } : { address, class: 'reserved' };
}

/** ISATAP interface identifiers are `0000:5efe` or `0200:5efe` followed by the IPv4 address. */
function isIsatap(parts: number[]): boolean {
  return ((parts[4] ?? 0) & 0xfdff) === 0 && parts[5] === 0x5efe;
}

function worst(first: AddressVerdict, second: AddressVerdict): AddressVerdict {
  return first.class !== 'public' ? first : second;
}
