import { lookup as dnsLookup } from 'node:dns/promises';

export interface LookupAnswer {
  address: string;
  family: number;
}

/**
 * Resolves a host name to every address it has. Injectable so tests map names to loopback
 * addresses and never touch a live resolver; `httpRequest` calls it once per hop.
 */
export type HostLookup = (hostname: string) => Promise<readonly LookupAnswer[]>;

export const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });
