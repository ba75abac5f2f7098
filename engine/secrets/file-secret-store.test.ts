import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSecretStore } from './file-secret-store';
import type { SecretStore } from './secret-store';
import { revealAll, secretPresence } from './secret-store';
import { useTempDirs } from '../../test/test-support/temp-dirs';

const tempDir = useTempDirs('lemming-secrets-');

async function open(path: string, orgPaths: string[] = []): Promise<SecretStore> {
  const opened = await openFileSecretStore(path, { orgPaths, clock: () => new Date('2026-03-01T10:00:00Z') });
  if (!opened.ok) throw new Error(opened.error);
  return opened.value.store;
}

const posix = process.platform !== 'win32';

describe('file secret store', () => {
  it('stores, lists, reveals and deletes secrets; a missing file is an empty store', async () => {
    const file = join(tempDir(), 'secrets.json');
    const store = await open(file);
    expect(await store.list()).toEqual([]);
    expect(existsSync(file)).toBe(false);

    expect(await store.set('GITHUB_TOKEN', 'ghp_value_one')).toEqual({ ok: true, value: { existed: false } });
    expect(await store.set('API_KEY', 'sk-abcdef')).toEqual({ ok: true, value: { existed: false } });
    expect(await store.set('GITHUB_TOKEN', 'ghp_value_two')).toEqual({ ok: true, value: { existed: true } });

    expect(await store.list()).toEqual([
      { name: 'API_KEY', updatedAt: '2026-03-01T10:00:00.000Z', source: 'file' },
      { name: 'GITHUB_TOKEN', updatedAt: '2026-03-01T10:00:00.000Z', source: 'file' },
    ]);
    expect(await store.has('GITHUB_TOKEN')).toBe(true);
    expect(await store.reveal('GITHUB_TOKEN')).toBe('ghp_value_two');
    expect(await store.reveal('MISSING')).toBeUndefined();

    expect(await store.delete('GITHUB_TOKEN')).toEqual({ ok: true, value: { existed: true } });
    expect(await store.delete('GITHUB_TOKEN')).toEqual({ ok: true, value: { existed: false } });
    expect(await store.has('GITHUB_TOKEN')).toBe(false);
    expect(await revealAll(store)).toEqual([{ name: 'API_KEY', value: 'sk-abcdef' }]);
    const has = await secretPresence(store);
    expect([has('API_KEY'), has('GITHUB_TOKEN')]).toEqual([true, false]);
  });

  it('never gives a value or its length in a listing', async () => {
    const store = await open(join(tempDir(), 'secrets.json'));
    await store.set('TOKEN', 'the-value-itself-0123456789');
    const listing = JSON.stringify(await store.list());
    expect(listing).not.toContain('the-value-itself');
    expect(listing).not.toContain('27');
    expect(Object.keys((await store.list())[0]!)).toEqual(['name', 'updatedAt', 'source']);
  });

  it('refuses bad names and empty values with a reason, and writes nothing', async () => {
    const file = join(tempDir(), 'secrets.json');
    const store = await open(file);
    const lower = await store.set('github_token', 'value');
    expect(lower).toMatchObject({
      ok: false,
      error: { reason: expect.stringMatching(/"github_token" is not a valid secret name: .*upper-case/) },
    });
    expect(await store.set('1TOKEN', 'value')).toMatchObject({ ok: false });
    expect(await store.set('A-B', 'value')).toMatchObject({ ok: false });
    expect(await store.set('TOKEN', '')).toMatchObject({
      ok: false,
      error: { reason: 'a secret value must not be empty' },
    });
    expect(await store.delete('bad name')).toMatchObject({ ok: false });
    expect(existsSync(file)).toBe(false);
  });

  it.runIf(posix)(
    'creates the file owner-only (0600) and its folder 0700, and narrows a file others could read',
    async () => {
      const folder = join(tempDir(), 'new-folder');
      const file = join(folder, 'secrets.json');
      const store = await open(file);
      await store.set('TOKEN', 'value-1');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(folder).mode & 0o777).toBe(0o700);

      const shared = join(tempDir(), 'shared.json');
      writeFileSync(shared, '{"secrets": {}}');
      chmodSync(shared, 0o644);
      const other = await open(shared);
      await other.set('TOKEN', 'value-2');
      expect(statSync(shared).mode & 0o777).toBe(0o600);
    },
  );

  it('replaces the file atomically: concurrent changes all land, readers only ever see whole documents, no temp file is left', async () => {
    const folder = tempDir();
    const file = join(folder, 'secrets.json');
    const store = await open(file);
    await store.set('FIRST', 'value-first');
    let reading = true;
    const seen: number[] = [];
    const reader = (async () => {
      while (reading) {
        const secrets = JSON.parse(readFileSync(file, 'utf8')).secrets as Record<string, unknown>;
        seen.push(Object.keys(secrets).length);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const names = Array.from({ length: 40 }, (_, index) => `SECRET_${index}`);
    const results = await Promise.all(names.map((name) => store.set(name, `value-of-${name}`)));
    reading = false;
    await reader;
    expect(results.every((result) => result.ok)).toBe(true);
    expect((await store.list()).map((info) => info.name)).toHaveLength(41);
    expect(seen.length).toBeGreaterThan(0);
    expect(readdirSync(folder)).toEqual(['secrets.json']);
  });

  it('keeps fields it does not know, in the document and in each entry', async () => {
    const file = join(tempDir(), 'secrets.json');
    writeFileSync(
      file,
      JSON.stringify({
        format: 'lemming-secrets',
        version: 1,
        comment: 'mine',
        secrets: { TOKEN: { value: 'old-value', updated_at: null, note: 'rotate monthly' } },
      }),
    );
    const store = await open(file);
    await store.set('TOKEN', 'new-value');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.comment).toBe('mine');
    expect(written.secrets.TOKEN).toEqual({
      value: 'new-value',
      updated_at: '2026-03-01T10:00:00.000Z',
      note: 'rotate monthly',
    });
  });

  it('skips entries it cannot use, with a warning naming the file and entry, and keeps them in the file', async () => {
    const file = join(tempDir(), 'secrets.json');
    writeFileSync(
      file,
      JSON.stringify({
        secrets: {
          lower_case: { value: 'abcd' },
          NO_VALUE: { ciphertext: 'xyz' },
          GOOD: { value: 'good-value' },
        },
      }),
    );
    const opened = await openFileSecretStore(file);
    if (!opened.ok) throw new Error(opened.error);
    expect(opened.value.warnings).toEqual([
      expect.stringMatching(
        /secrets\.json \(secrets\.lower_case\): skipped: "lower_case" is not a valid secret name/,
      ),
      expect.stringMatching(/secrets\.json \(secrets\.NO_VALUE\): skipped: the entry has no "value" text/),
    ]);
    expect((await opened.value.store.list()).map((info) => info.name)).toEqual(['GOOD']);
    await opened.value.store.set('OTHER', 'other-value');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).secrets)).toEqual([
      'lower_case',
      'NO_VALUE',
      'GOOD',
      'OTHER',
    ]);
  });

  it('refuses a file that is not valid JSON, naming the file, line and column', async () => {
    const file = join(tempDir(), 'secrets.json');
    writeFileSync(file, '{\n  "secrets": {\n    "A": {"value": "x"},\n  }\n}\n');
    const opened = await openFileSecretStore(file);
    expect(opened).toEqual({
      ok: false,
      error: expect.stringMatching(new RegExp(`^${escape(file)}:4:3: invalid JSON`)),
    });
  });

  it('refuses a file written by a newer version, and one whose "secrets" is not an object', async () => {
    const newer = join(tempDir(), 'newer.json');
    writeFileSync(newer, JSON.stringify({ version: 2, secrets: {} }));
    expect(await openFileSecretStore(newer)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/\(version\): version 2 is not one this app can read/),
    });
    const list = join(tempDir(), 'list.json');
    writeFileSync(list, JSON.stringify({ secrets: ['A'] }));
    expect(await openFileSecretStore(list)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/\(secrets\): "secrets" must be an object/),
    });
  });

  it('sees a secret another process set after it was opened', async () => {
    const file = join(tempDir(), 'secrets.json');
    const running = await open(file);
    expect(await running.has('LATE')).toBe(false);
    await (await open(file)).set('LATE', 'late-value');
    expect(await running.reveal('LATE')).toBe('late-value');
  });
});

describe('where the secrets file may live', () => {
  function org(): string {
    const root = join(tempDir(), 'org');
    mkdirSync(join(root, 'agents', 'writer'), { recursive: true });
    writeFileSync(join(root, 'agents', 'writer', 'resume.json'), '{}');
    return root;
  }

  it('refuses a file inside an org folder it is told about, saying why and what to do', async () => {
    const root = join(tempDir(), 'plain-folder');
    mkdirSync(root);
    const opened = await openFileSecretStore(join(root, 'secrets.json'), { orgPaths: [root] });
    expect(opened).toEqual({
      ok: false,
      error: expect.stringMatching(
        /is inside the org folder .*plain-folder: an agent allowed to read files there could read every secret\. Keep it outside any org folder/,
      ),
    });
  });

  it('refuses a file anywhere under a folder that looks like an org, even one not given', async () => {
    const withAgent = org();
    expect(
      await openFileSecretStore(join(withAgent, 'agents', 'writer', 'workspace', 'secrets.json')),
    ).toMatchObject({ ok: false });
    expect(await openFileSecretStore(join(withAgent, 'secrets.json'))).toMatchObject({ ok: false });
    const withConfig = join(tempDir(), 'lemming-org');
    mkdirSync(join(withConfig, 'lemming', 'config'), { recursive: true });
    expect(await openFileSecretStore(join(withConfig, 'shared', 'secrets.json'))).toMatchObject({
      ok: false,
    });
  });

  it.runIf(posix)('follows links: a path outside that leads into an org is refused', async () => {
    const root = org();
    const outside = tempDir();
    symlinkSync(join(root, 'shared'), join(outside, 'link'));
    mkdirSync(join(root, 'shared'));
    expect(await openFileSecretStore(join(outside, 'link', 'secrets.json'))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/inside the org folder/),
    });
    symlinkSync(join(root, 'secrets.json'), join(outside, 'file-link.json'));
    expect(await openFileSecretStore(join(outside, 'file-link.json'))).toMatchObject({ ok: false });
  });

  it('accepts a file beside an org, and in a folder named .lemming', async () => {
    const root = org();
    expect(await openFileSecretStore(join(root, '..', 'secrets.json'), { orgPaths: [root] })).toMatchObject({
      ok: true,
    });
    expect(await openFileSecretStore(join(tempDir(), '.lemming', 'secrets.json'))).toMatchObject({
      ok: true,
    });
  });

  it('refuses a folder given as the file', async () => {
    const folder = tempDir();
    expect(await openFileSecretStore(folder)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/is a folder; give the path of a secrets file/),
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
