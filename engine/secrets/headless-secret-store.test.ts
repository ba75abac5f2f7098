import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openHeadlessSecretStore } from './headless-secret-store';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("headless secrets (the CLI's)", () => {
  it('use the file named by --secrets-file or LEMMING_SECRETS_FILE over the environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-headless-'));
    made.push(dir);
    const file = join(dir, 'secrets.json');
    const env = { LEMMING_SECRETS_FILE: file, LEMMING_SECRET_FROM_ENV: 'env-value' };
    const opened = await openHeadlessSecretStore({ env });
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.value.file).toBe(file);
    expect(await opened.value.store.set('FROM_FILE', 'file-value')).toMatchObject({ ok: true });
    const again = await openHeadlessSecretStore({ file, env: {} });
    if (!again.ok) throw new Error(again.error);
    expect(await again.value.store.reveal('FROM_FILE')).toBe('file-value');
    expect((await opened.value.store.list()).map((info) => info.name)).toEqual(['FROM_ENV', 'FROM_FILE']);
  });

  it('are the environment alone, read-only, when no file is named', async () => {
    const opened = await openHeadlessSecretStore({ env: { LEMMING_SECRET_TOKEN: 'token-value' } });
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.value.file).toBeNull();
    expect(await opened.value.store.reveal('TOKEN')).toBe('token-value');
    expect(await opened.value.store.set('OTHER', 'value')).toMatchObject({ ok: false });
  });

  it('refuse a secrets file inside the org being run', async () => {
    const org = mkdtempSync(join(tmpdir(), 'lemming-headless-org-'));
    made.push(org);
    expect(
      await openHeadlessSecretStore({ file: join(org, 'secrets.json'), env: {}, orgPaths: [org] }),
    ).toMatchObject({ ok: false, error: expect.stringMatching(/inside the org folder/) });
  });
});
