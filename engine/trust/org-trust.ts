import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OrgReach, OrgTrust, ReachItem, TrustChanges } from '../api/trust-schemas';
import { readOrgReach } from './org-reach';
import type { TrustStore } from './trust-store';

/** The key a trust record is kept under: the org's real path, so a link or `..` cannot pass for another org. */
export function orgKeyOf(orgPath: string): string {
  const absolute = resolve(orgPath);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

const itemKey = (item: ReachItem): string =>
  `${item.kind}\u0000${item.subject}\u0000${item.file}\u0000${item.field ?? ''}`;

/**
 * sha256 of what the org can run and reach, in a canonical order: the same reach always gives the same
 * fingerprint, and any added, removed or changed program, address, secret or variable gives another.
 * The plain words (`because`) are left out, so rewording them never asks again.
 */
export function fingerprintOf(reach: OrgReach): string {
  const lines = [
    ...reach.items.map(itemKey),
    ...reach.unreadable.map((file) => `unreadable\u0000${file.file}\u0000${file.message}`),
  ].sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** What was added and removed between the trusted items and today's. */
export function reachChanges(trusted: readonly ReachItem[], now: readonly ReachItem[]): TrustChanges {
  const before = new Set(trusted.map(itemKey));
  const after = new Set(now.map(itemKey));
  return {
    added: now.filter((item) => !before.has(itemKey(item))),
    removed: trusted.filter((item) => !after.has(itemKey(item))),
  };
}

/** Whether the org needs the person's trust at all: it runs, reaches or names something. */
export const needsTrust = (reach: OrgReach): boolean => reach.items.length > 0 || reach.unreadable.length > 0;

/** The one decision whether an org may run (docs/ARCHITECTURE.md, “Trust”). */
export function judgeTrust(orgKey: string, reach: OrgReach, store: TrustStore): OrgTrust {
  const fingerprint = fingerprintOf(reach);
  const record = store.record(orgKey);
  const base = { orgPath: orgKey, fingerprint, reach, grants: record.grants };
  if (!needsTrust(reach))
    return { ...base, state: 'not_needed', trustedAt: record.trusted?.at ?? null, changes: null };
  if (!record.trusted) return { ...base, state: 'untrusted', trustedAt: null, changes: null };
  if (record.trusted.fingerprint === fingerprint)
    return { ...base, state: 'trusted', trustedAt: record.trusted.at, changes: null };
  return {
    ...base,
    state: 'changed',
    trustedAt: record.trusted.at,
    changes: reachChanges(record.trusted.items, reach.items),
  };
}

/** Reads the org's reach and judges it against the person's record. */
export async function orgTrust(orgPath: string, store: TrustStore): Promise<OrgTrust> {
  return judgeTrust(orgKeyOf(orgPath), await readOrgReach(orgPath), store);
}

export const mayRun = (trust: OrgTrust): boolean => trust.state === 'trusted' || trust.state === 'not_needed';
