import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryChangeRecord, TurnMemory } from './turn-memory';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function eventsAfter(updates: { key: string; op: 'set' | 'append' | 'merge'; value: unknown }[]) {
  const folder = mkdtempSync(join(tmpdir(), 'turn-memory-'));
  folders.push(folder);
  const memory = new TurnMemory(join(folder, 'agents/w1'));
  for (const update of updates) expect((await memory.apply(update)).ok).toBe(true);
  const where = { folder, agent: 'w1', tick: 1, now: new Date(0) };
  return memory.changes().map((change) => memoryChangeRecord(change, where).event);
}

describe('a turn memory change as the timeline records it', () => {
  it('keeps the items a turn appended and the objects it merged in, in order', async () => {
    expect(
      await eventsAfter([
        { key: 'seen', op: 'append', value: 'a' },
        { key: 'seen', op: 'append', value: 'b' },
        { key: 'plan', op: 'merge', value: { goal: 'x' } },
        { key: 'plan', op: 'merge', value: { done: true } },
      ]),
    ).toEqual([
      { kind: 'memory_update', key: 'seen', op: 'append', appended: ['a', 'b'] },
      { kind: 'memory_update', key: 'plan', op: 'merge', merged: [{ goal: 'x' }, { done: true }] },
    ]);
  });

  it('keeps the new value when the turn set the key, even if it appended to it afterwards', async () => {
    expect(
      await eventsAfter([
        { key: 'seen', op: 'set', value: ['a'] },
        { key: 'seen', op: 'append', value: 'b' },
      ]),
    ).toEqual([{ kind: 'memory_update', key: 'seen', op: 'append', value: ['a', 'b'] }]);
  });
});
