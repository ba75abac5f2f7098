import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { envSecretStore } from './env-secret-store';
import { openFileSecretStore } from './file-secret-store';
import { layeredSecretStore } from './layered-secret-store';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function fileAndEnvironment() {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-layered-'));
  made.push(dir);
  const opened = await openFileSecretStore(join(dir, 'secrets.json'), {
    clock: () => new Date('2026-01-01T00:00:00Z'),
  });
  if (!opened.ok) throw new Error(opened.error);
  await opened.value.store.set('SHARED', 'from-the-file');
  const environment = envSecretStore({
    LEMMING_SECRET_SHARED: 'from-the-environment',
    LEMMING_SECRET_CI_TOKEN: 'ci-token-value',
  });
  return { file: opened.value.store, store: layeredSecretStore(opened.value.store, environment) };
}

describe('layered secret store (secrets file over environment)', () => {
  it('reads the file first, then the environment, and lists each name once', async () => {
    const { store } = await fileAndEnvironment();
    expect(await store.list()).toEqual([
      { name: 'CI_TOKEN', updatedAt: null, source: 'environment' },
      { name: 'SHARED', updatedAt: '2026-01-01T00:00:00.000Z', source: 'file' },
    ]);
    expect(await store.reveal('SHARED')).toBe('from-the-file');
    expect(await store.reveal('CI_TOKEN')).toBe('ci-token-value');
    expect(await store.has('CI_TOKEN')).toBe(true);
  });

  it('writes to the file only: deleting a file secret uncovers the environment one', async () => {
    const { store, file } = await fileAndEnvironment();
    expect(await store.set('NEW_ONE', 'new-value')).toMatchObject({ ok: true });
    expect(await file.reveal('NEW_ONE')).toBe('new-value');
    expect(await store.delete('SHARED')).toEqual({ ok: true, value: { existed: true } });
    expect(await store.reveal('SHARED')).toBe('from-the-environment');
    expect(await store.availability()).toEqual({ canStore: true });
  });
});
