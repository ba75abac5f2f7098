import type { z } from 'zod';
import { fail, ok, type IpcResult } from '../api/result';
import type { SecretChanged, SecretList, SecretListItem, SecretStoreStatus } from '../api/settings-schemas';
import { readModelsFile } from '../models/models-file';
import type { SecretStore } from '../secrets/secret-store';
import { orgKeyOf } from '../trust/org-trust';
import type { SecretsAccess } from './org-context';
import type { TrustContext } from './trust';
import { orgConnectors } from './org-connectors';

export async function secretStoreStatus(store: SecretStore): Promise<SecretStoreStatus> {
  const availability = await store.availability();
  return availability.canStore
    ? { canStore: true, location: store.location }
    : { canStore: false, reason: availability.reason, fix: availability.fix, location: store.location };
}

/** Names that the open org's models and connectors need, each with who needs it. */
async function requiredSecrets(
  secrets: SecretsAccess,
  orgPath: string | null,
): Promise<Map<string, string[]>> {
  const needed = new Map<string, string[]>();
  const need = (name: string, by: string) => needed.set(name, [...(needed.get(name) ?? []), by]);
  if (orgPath === null) return needed;
  for (const entry of (await readModelsFile(orgPath)).entries)
    if (entry.provider_config.api_key_secret)
      need(entry.provider_config.api_key_secret, `model "${entry.key}"`);
  for (const connector of (await orgConnectors(orgPath, secrets.store)).connectors)
    for (const secret of connector.secrets) need(secret.name, `connector "${connector.name}"`);
  return needed;
}

/**
 * Every secret that is set, and every one the open org (if any) needs that is not: names and dates
 * only, and whether the open org may use each.
 */
export async function listSecrets(
  secrets: SecretsAccess,
  org: TrustContext | null,
): Promise<IpcResult<z.output<typeof SecretList>>> {
  const store = secrets.store;
  const [stored, needed, status] = await Promise.all([
    store.list(),
    requiredSecrets(secrets, org?.orgPath ?? null),
    secretStoreStatus(store),
  ]);
  const granted = org ? new Set(org.trust.record(orgKeyOf(org.orgPath)).grants.secrets) : null;
  const grantedToOrg = (name: string) => (granted ? granted.has(name) : null);
  const items = new Map<string, SecretListItem>();
  for (const info of stored)
    items.set(info.name, {
      name: info.name,
      isSet: true,
      updatedAt: info.updatedAt,
      source: info.source,
      usedBy: needed.get(info.name) ?? [],
      grantedToOrg: grantedToOrg(info.name),
    });
  for (const [name, usedBy] of needed)
    if (!items.has(name))
      items.set(name, {
        name,
        isSet: false,
        updatedAt: null,
        source: null,
        usedBy,
        grantedToOrg: grantedToOrg(name),
      });
  return ok({
    secrets: [...items.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    store: status,
  });
}

/** Sets or replaces a secret; the answer says only that it is set. */
export async function setSecret(
  secrets: SecretsAccess,
  name: string,
  value: string,
): Promise<IpcResult<z.output<typeof SecretChanged>>> {
  const changed = await secrets.store.set(name, value);
  if (!changed.ok)
    return fail(
      'refused',
      `The secret ${name} was not saved: ${changed.error.reason}.`,
      undefined,
      changed.error.fix,
    );
  await secrets.changed();
  return ok({ name, isSet: true, existed: changed.value.existed });
}

export async function deleteSecret(
  secrets: SecretsAccess,
  name: string,
): Promise<IpcResult<z.output<typeof SecretChanged>>> {
  const changed = await secrets.store.delete(name);
  if (!changed.ok)
    return fail(
      'refused',
      `The secret ${name} was not deleted: ${changed.error.reason}.`,
      undefined,
      changed.error.fix,
    );
  await secrets.changed();
  return ok({ name, isSet: false, existed: changed.value.existed });
}
