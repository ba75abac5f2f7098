import type { z } from 'zod';
import { fail, ok, type IpcResult } from '../../engine/api/result';
import type {
  SecretChanged,
  SecretList,
  SecretListItem,
  SecretStoreStatus,
} from '../../engine/api/settings-schemas';
import { readModelsFile } from '../../engine/models/models-file';
import type { SecretStore } from '../../engine/secrets/secret-store';
import type { EngineHost } from './engine-host';
import { orgConnectors } from './org-connectors';

export async function secretStoreStatus(store: SecretStore): Promise<SecretStoreStatus> {
  const availability = await store.availability();
  return availability.canStore
    ? { canStore: true, location: store.location }
    : { canStore: false, reason: availability.reason, fix: availability.fix, location: store.location };
}

/** Names that the open org's models and connectors need, each with who needs it. */
async function requiredSecrets(host: EngineHost): Promise<Map<string, string[]>> {
  const needed = new Map<string, string[]>();
  const need = (name: string, by: string) => needed.set(name, [...(needed.get(name) ?? []), by]);
  const session = host.current();
  if (!session) return needed;
  for (const entry of (await readModelsFile(session.orgPath)).entries)
    if (entry.provider_config.api_key_secret)
      need(entry.provider_config.api_key_secret, `model "${entry.key}"`);
  for (const connector of (await orgConnectors(session.orgPath, host.secretStore)).connectors)
    for (const secret of connector.secrets) need(secret.name, `connector "${connector.name}"`);
  return needed;
}

/** Every secret that is set, and every one the org needs that is not: names and dates only. */
export async function listSecrets(host: EngineHost): Promise<IpcResult<z.output<typeof SecretList>>> {
  const store = host.secretStore;
  const [stored, needed, status] = await Promise.all([
    store.list(),
    requiredSecrets(host),
    secretStoreStatus(store),
  ]);
  const items = new Map<string, SecretListItem>();
  for (const info of stored)
    items.set(info.name, {
      name: info.name,
      isSet: true,
      updatedAt: info.updatedAt,
      source: info.source,
      usedBy: needed.get(info.name) ?? [],
    });
  for (const [name, usedBy] of needed)
    if (!items.has(name)) items.set(name, { name, isSet: false, updatedAt: null, source: null, usedBy });
  return ok({
    secrets: [...items.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    store: status,
  });
}

/** Sets or replaces a secret; the answer says only that it is set. */
export async function setSecret(
  host: EngineHost,
  name: string,
  value: string,
): Promise<IpcResult<z.output<typeof SecretChanged>>> {
  const changed = await host.secretStore.set(name, value);
  if (!changed.ok)
    return fail('refused', `The secret ${name} was not saved: ${changed.reason}.`, undefined, changed.fix);
  await host.reloadSecrets();
  return ok({ name, isSet: true, existed: changed.existed });
}

export async function deleteSecret(
  host: EngineHost,
  name: string,
): Promise<IpcResult<z.output<typeof SecretChanged>>> {
  const changed = await host.secretStore.delete(name);
  if (!changed.ok)
    return fail('refused', `The secret ${name} was not deleted: ${changed.reason}.`, undefined, changed.fix);
  await host.reloadSecrets();
  return ok({ name, isSet: false, existed: changed.existed });
}
