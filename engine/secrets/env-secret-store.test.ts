import { describe, expect, it } from 'vitest';
import { envSecretStore } from './env-secret-store';

describe('environment secret store', () => {
  const store = envSecretStore({
    LEMMING_SECRET_GITHUB_TOKEN: 'ghp_from_env',
    LEMMING_SECRET_lower: 'ignored: not a secret name',
    LEMMING_SECRET_EMPTY: '',
    OPENAI_API_KEY: 'not prefixed, so not a secret',
    PATH: '/usr/bin',
  });

  it('offers only LEMMING_SECRET_* variables with valid names and values, without the prefix', async () => {
    expect(await store.list()).toEqual([{ name: 'GITHUB_TOKEN', updatedAt: null, source: 'environment' }]);
    expect(await store.reveal('GITHUB_TOKEN')).toBe('ghp_from_env');
    expect(await store.has('OPENAI_API_KEY')).toBe(false);
    expect(await store.has('EMPTY')).toBe(false);
  });

  it('is read-only and says what to do instead', async () => {
    expect(await store.availability()).toMatchObject({
      canStore: false,
      fix: expect.stringContaining('--secrets-file'),
    });
    expect(await store.set('NEW', 'value')).toMatchObject({
      ok: false,
      error: { fix: expect.stringContaining('LEMMING_SECRET_NEW') },
    });
    expect(await store.delete('GITHUB_TOKEN')).toMatchObject({ ok: false });
    expect(await store.has('GITHUB_TOKEN')).toBe(true);
  });
});
