import { describe, expect, it } from 'vitest';
import {
  classifyAddress,
  describeVerdict,
  isCanonicalIp,
  isReachable,
  type AddressClass,
} from './address-policy';

const CLASSES: [string, AddressClass][] = [
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['192.168.0.1', 'private'],
  ['169.254.169.254', 'link_local'],
  ['100.64.0.1', 'carrier_grade_nat'],
  ['100.128.0.1', 'public'],
  ['198.18.0.1', 'benchmark'],
  ['198.19.255.255', 'benchmark'],
  ['192.0.2.1', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['224.0.0.251', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['2606:4700:4700::1111', 'public'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link_local'],
  ['fe80::1%eth0', 'link_local'],
  ['fc00::1', 'unique_local'],
  ['fd00:ec2::254', 'unique_local'],
  ['ff02::1', 'multicast'],
  ['fec0::1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['100::1', 'reserved'],
  ['2001:2::1', 'benchmark'],
  ['::2', 'unspecified'],
  ['::8.8.8.8', 'reserved'],
  ['4000::1', 'reserved'],
  ['64:ff9b:1::808:808', 'reserved'],
  ['127.1', 'not_an_ip'],
  ['0x7f.0.0.1', 'not_an_ip'],
  ['2130706433', 'not_an_ip'],
  ['0177.0.0.1', 'not_an_ip'],
  ['127.000.0.1', 'not_an_ip'],
  ['[::1]', 'not_an_ip'],
  ['api.example.com', 'not_an_ip'],
  ['', 'not_an_ip'],
];

describe('classifyAddress', () => {
  it.each(CLASSES)('%s is %s', (address, expected) => {
    expect(classifyAddress(address).class).toBe(expected);
  });

  it.each([
    ['::ffff:127.0.0.1', 'ipv4_mapped', '127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'ipv4_mapped', '169.254.169.254', 'link_local'],
    ['::ffff:8.8.8.8', 'ipv4_mapped', '8.8.8.8', 'public'],
    ['::ffff:0:10.0.0.1', 'ipv4_translated', '10.0.0.1', 'private'],
    ['::127.0.0.1', 'ipv4_compatible', '127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'nat64', '169.254.169.254', 'link_local'],
    ['64:ff9b::8.8.8.8', 'nat64', '8.8.8.8', 'public'],
    ['2002:c0a8:0101::1', '6to4', '192.168.1.1', 'private'],
    ['2002:0808:0808::1', '6to4', '8.8.8.8', 'public'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'teredo', '127.0.0.1', 'loopback'],
    ['2001:0:0a00:0001:8000:63bf:f7f7:f7f7', 'teredo', '10.0.0.1', 'private'],
    ['2600:1f18::5efe:a9fe:a9fe', 'isatap', '169.254.169.254', 'link_local'],
    ['2600:1f18::200:5efe:a00:1', 'isatap', '10.0.0.1', 'private'],
  ] as const)('%s carries %s %s and is %s', (address, via, ipv4, expected) => {
    const verdict = classifyAddress(address);
    expect(verdict).toEqual({ address, class: expected, embedded: { via, ipv4 } });
  });

  it('treats a Teredo address as public only when both its server and its client are', () => {
    // Server 10.0.0.1 (words 2-3), client 8.8.8.8 (the last two words, inverted).
    expect(classifyAddress('2001:0:a00:1:0:0:f7f7:f7f7').class).toBe('private');
    expect(classifyAddress('2001:0:808:808:0:0:f7f7:f7f7').class).toBe('public');
  });

  it('explains a verdict in words, naming the embedded address', () => {
    expect(describeVerdict(classifyAddress('10.0.0.1'))).toBe('10.0.0.1 is a private network address');
    expect(describeVerdict(classifyAddress('64:ff9b::a9fe:a9fe'))).toBe(
      '64:ff9b::a9fe:a9fe embeds 169.254.169.254 (nat64), which is a link-local address (where cloud metadata services live)',
    );
  });
});

describe('isCanonicalIp', () => {
  it('accepts what resolvers and normalised URL hosts produce, and nothing else', () => {
    expect(['1.2.3.4', '::1', '::ffff:1.2.3.4', 'fe80::1%lo'].map(isCanonicalIp)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['1.2.3', '01.2.3.4', '0x1.2.3.4', '16909060', '1.2.3.4.', ' 1.2.3.4'].map(isCanonicalIp)).toEqual(
      [false, false, false, false, false, false],
    );
  });
});

describe('isReachable', () => {
  const reachable = (address: string, optIn: boolean) => isReachable(classifyAddress(address), optIn);

  it('reaches public addresses only, unless the host is a named private host', () => {
    expect(reachable('8.8.8.8', false)).toBe(true);
    expect(reachable('192.168.1.20', false)).toBe(false);
    expect(reachable('192.168.1.20', true)).toBe(true);
    expect(reachable('127.0.0.1', true)).toBe(true);
    expect(reachable('::ffff:127.0.0.1', true)).toBe(true);
    expect(reachable('fd12::1', true)).toBe(true);
    expect(reachable('100.64.0.1', true)).toBe(true);
    expect(reachable('198.18.0.1', true)).toBe(true);
  });

  it('never reaches link-local or nowhere addresses, opt-in or not', () => {
    for (const address of [
      '169.254.169.254',
      'fe80::1',
      '0.0.0.0',
      '::',
      '224.0.0.1',
      '255.255.255.255',
      '240.0.0.1',
      '127.1',
    ])
      expect(reachable(address, true)).toBe(false);
  });
});
