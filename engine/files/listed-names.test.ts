import { describe, expect, it } from 'vitest';
import { ListedNames } from './listed-names';

describe('ListedNames', () => {
  it('keeps a name known while the folder still lists it', () => {
    const names = new ListedNames();
    names.relist('a', ['1.json', '2.json']).add('1.json');
    const known = names.relist('a', ['1.json', '2.json', '3.json']);
    expect([...known]).toEqual(['1.json']);
  });

  it('forgets names a listing no longer shows, so pruned files do not pile up', () => {
    const names = new ListedNames();
    for (let tick = 0; tick < 500; tick += 1) {
      // A folder that keeps its last 10 files, as an outbox pruned by age does.
      const listing = Array.from({ length: Math.min(tick + 1, 10) }, (_, i) => `${tick - i}.json`);
      const known = names.relist('outbox', listing);
      for (const name of listing) known.add(name);
    }
    expect(names.size).toBe(10);
  });

  it('forgets folders no longer listed', () => {
    const names = new ListedNames();
    names.relist('a', ['1.json']).add('1.json');
    names.relist('b', ['1.json']).add('1.json');
    names.keepFolders(['b']);
    expect(names.size).toBe(1);
    expect([...names.relist('a', ['1.json'])]).toEqual([]);
  });
});
