import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  BundleOrigin,
  type BundleImportResult,
  type BundleImportTarget,
  type BundleInspection,
  type BundleManifest,
} from '../api/bundle-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import type { BundleLimits } from '../bundle/bundle-limits';
import { readBundle } from '../bundle/bundle-reader';
import { unpackBundle } from '../bundle/unpack-bundle';
import type { SecretStore } from '../secrets/secret-store';
import { orgKeyOf } from '../trust/org-trust';
import type { TrustStore } from '../trust/trust-store';

/** Where an imported org keeps the manifest it came with, for its trust screen (run state: never exported). */
export const BUNDLE_ORIGIN_FILE = '.lemming/bundle-origin.json';

export interface BundleImportContext {
  readonly secrets: SecretStore;
  readonly trust: TrustStore;
  readonly limits?: BundleLimits;
}

async function missingSecrets(manifest: BundleManifest, secrets: SecretStore): Promise<string[]> {
  const stored = new Set((await secrets.list()).map((info) => info.name));
  return manifest.secrets.filter((name) => !stored.has(name));
}

/** A bundle's manifest after every check an import makes (nothing is written), with the secrets not stored here. */
export async function inspectBundle(
  context: Pick<BundleImportContext, 'secrets' | 'limits'>,
  file: string,
): Promise<IpcResult<BundleInspection>> {
  const read = await readBundle(resolve(file), context.limits ? { limits: context.limits } : {});
  if (!read.ok) return fail('refused', `This bundle was refused: ${read.error}.`);
  return ok({
    path: resolve(file),
    manifest: read.value,
    missingSecrets: await missingSecrets(read.value, context.secrets),
  });
}

/**
 * Imports a bundle as a new org, or its agents and departments beside an existing org's (never over
 * anything the org has: clashes are listed and nothing is written). The org is left untrusted, its
 * manifest kept for the trust screen, which shows what it would run and reach and the secrets to set.
 */
export async function importBundle(
  context: BundleImportContext,
  file: string,
  target: BundleImportTarget,
): Promise<IpcResult<BundleImportResult>> {
  const unpacked = await unpackBundle(
    resolve(file),
    target.kind === 'new' ? { kind: 'new', folder: target.folder } : { kind: 'into', folder: target.orgPath },
    context.limits,
  );
  if (!unpacked.ok)
    return unpacked.error.clashes
      ? fail(
          'already_exists',
          `Nothing was imported: ${unpacked.error.reason}.`,
          unpacked.error.clashes.map((path) => ({ path, message: 'already in the org' })),
          'Rename or move these in the org, or import into another folder.',
        )
      : fail('refused', `This bundle was refused and nothing was written: ${unpacked.error.reason}.`);
  const { manifest, folder, written } = unpacked.value;
  const origin: BundleOrigin = { manifest, importedAt: new Date().toISOString(), bundleFile: resolve(file) };
  await mkdir(join(folder, '.lemming'), { recursive: true });
  await writeFile(join(folder, ...BUNDLE_ORIGIN_FILE.split('/')), `${JSON.stringify(origin, null, 2)}\n`);
  const revoked = await context.trust.revoke(orgKeyOf(folder));
  if (!revoked.ok)
    return fail('refused', `The bundle was imported, but trust could not be taken back: ${revoked.error}`);
  return ok({
    orgPath: folder,
    written,
    manifest,
    missingSecrets: await missingSecrets(manifest, context.secrets),
  });
}

/** The manifest the org was imported with, or null when it did not come from a bundle (or the file is unreadable). */
export async function readBundleOrigin(orgPath: string): Promise<BundleOrigin | null> {
  try {
    const parsed = BundleOrigin.safeParse(
      JSON.parse(await readFile(join(orgPath, ...BUNDLE_ORIGIN_FILE.split('/')), 'utf8')),
    );
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
