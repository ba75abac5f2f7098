import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { folderSignature, SignatureCache } from './folder-signature';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function toolsFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'folder-signature-'));
  folders.push(root);
  return join(root, 'tools');
}

const eachFile = (name: string) => [{ path: name, follow: true }];

describe('folderSignature', () => {
  it('changes when a file is edited in place with the same size, added, removed or renamed', () => {
    const folder = toolsFolder();
    expect(folderSignature(folder, eachFile)).toBe('missing');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.yaml'), 'one');
    const seen = new Set([folderSignature(folder, eachFile)]);
    const changes = [
      () => writeFileSync(join(folder, 'a.yaml'), 'two'),
      () => writeFileSync(join(folder, 'b.yaml'), 'new'),
      () => renameSync(join(folder, 'b.yaml'), join(folder, 'c.yaml')),
      () => rmSync(join(folder, 'c.yaml')),
    ];
    for (const change of changes) {
      change();
      const signature = folderSignature(folder, eachFile);
      expect(seen.has(signature)).toBe(false);
      seen.add(signature);
    }
    expect(folderSignature(folder, eachFile)).toBe([...seen].at(-1));
  });

  it('follows a link where the loader does: an edit of the target changes it', () => {
    const folder = toolsFolder();
    mkdirSync(folder);
    const target = join(folder, '..', 'target.yaml');
    writeFileSync(target, 'one');
    symlinkSync(target, join(folder, 'linked.yaml'));
    const before = folderSignature(folder, eachFile);
    writeFileSync(target, 'two!');
    expect(folderSignature(folder, eachFile)).not.toBe(before);
  });
});

describe('SignatureCache', () => {
  it('loads again only when the signature changed', async () => {
    const cache = new SignatureCache<number>();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('agent', 's1', load)).toBe(1);
    expect(await cache.get('agent', 's1', load)).toBe(1);
    expect(await cache.get('agent', 's2', load)).toBe(2);
    expect(await cache.get('other', 's2', load)).toBe(3);
  });
});
