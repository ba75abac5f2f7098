import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryListingCache } from './memory-listing-cache';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function agentFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'memory-listing-'));
  roots.push(root);
  mkdirSync(join(root, 'memory'));
  return root;
}

const writeKey = (agentDir: string, key: string, value: unknown) =>
  writeFileSync(join(agentDir, 'memory', `${key}.json`), JSON.stringify({ key, value }, null, 2));

describe('MemoryListingCache', () => {
  it('gives the same listing while nothing changed, without reading the files again', async () => {
    const agentDir = agentFolder();
    writeKey(agentDir, 'plan', 'draft');
    const cache = new MemoryListingCache();
    const first = await cache.list(agentDir, 20);
    expect(first.entries).toEqual([{ key: 'plan', value: 'draft' }]);
    // The first listing read a file its signature did not cover yet; from the second on it is kept.
    const second = await cache.list(agentDir, 20);
    expect(await cache.list(agentDir, 20)).toBe(second);
    expect(second.entries).toEqual(first.entries);
  });

  it('sees an edit in place between turns, one of the same size included', async () => {
    const agentDir = agentFolder();
    writeKey(agentDir, 'plan', 'aaaa');
    const cache = new MemoryListingCache();
    await cache.list(agentDir, 20);
    await cache.list(agentDir, 20);
    writeKey(agentDir, 'plan', 'bbbb');
    expect((await cache.list(agentDir, 20)).entries).toEqual([{ key: 'plan', value: 'bbbb' }]);
  });

  it('sees keys added, removed and renamed, and a memory folder made or removed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'memory-listing-'));
    roots.push(root);
    const cache = new MemoryListingCache();
    const keys = async () => (await cache.list(root, 20)).entries.map((entry) => entry.key).sort();
    expect(await keys()).toEqual([]);
    mkdirSync(join(root, 'memory'));
    writeKey(root, 'a', 1);
    expect(await keys()).toEqual(['a']);
    writeKey(root, 'b', 2);
    expect(await keys()).toEqual(['a', 'b']);
    renameSync(join(root, 'memory', 'b.json'), join(root, 'memory', 'c.json'));
    expect(await keys()).toEqual(['a', 'c']);
    rmSync(join(root, 'memory', 'a.json'));
    expect(await keys()).toEqual(['c']);
    rmSync(join(root, 'memory'), { recursive: true });
    expect(await keys()).toEqual([]);
  });

  it('holds no more agents than its capacity, starting over when full', async () => {
    const cache = new MemoryListingCache(2);
    const [a, b, c] = [agentFolder(), agentFolder(), agentFolder()];
    for (const agentDir of [a, b, c]) writeKey(agentDir, 'k', 1);
    await cache.list(a, 20);
    const keptA = await cache.list(a, 20);
    expect(await cache.list(a, 20)).toBe(keptA);
    await cache.list(b, 20);
    await cache.list(c, 20);
    expect(await cache.list(a, 20)).not.toBe(keptA);
  });
});
