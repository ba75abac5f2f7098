import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orgTrust } from '../org-trust';
import { TrustStore } from '../trust-store';

/** A fresh trust record (in a temp folder) holding nothing: every org that needs trust is untrusted. */
export function emptyTrustStore(): TrustStore {
  return new TrustStore(join(mkdtempSync(join(tmpdir(), 'lemming-trust-')), 'trust.json'));
}

/**
 * A trust record in which the org is trusted as it is now, with every secret and environment variable
 * it names granted: for tests about something else than trust. Call it again after changing what the
 * org can run or reach.
 */
export async function trustAsIs(orgPath: string, store: TrustStore = emptyTrustStore()): Promise<TrustStore> {
  const now = await orgTrust(orgPath, store);
  const named = (kind: 'secret' | 'environment') =>
    now.reach.items.filter((item) => item.kind === kind).map((item) => item.subject);
  const recorded = await store.trust(now.orgPath, now.fingerprint, now.reach, {
    secrets: named('secret'),
    environment: named('environment'),
  });
  if (!recorded.ok) throw new Error(recorded.error);
  return store;
}
