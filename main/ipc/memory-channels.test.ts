import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMemory, TimelinePage } from '../../engine/api';
import { DEMO_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

async function demoAfterOneTick() {
  const harness = await harnesses.create();
  const org = harness.copy(DEMO_ORG);
  valueOf(await harness.dispatch('org.open', { path: org }));
  await harness.trustOpenOrg();
  valueOf(await harness.dispatch('run.step', {}));
  return { harness, org };
}

describe('an agent’s memory in the app', () => {
  it('shows each key with its value and where each change came from', async () => {
    const { harness } = await demoAfterOneTick();
    const memory = valueOf<AgentMemory>(await harness.dispatch('memory.get', { agent: 'manager' }));
    expect(memory.entries).toEqual([
      {
        key: 'plan',
        value: { goal: 'launch note', steps: ['research', 'draft', 'review'], status: 'researching' },
        updatedAt: expect.any(String),
        tick: 1,
      },
    ]);
    expect(memory.history).toEqual([
      expect.objectContaining({ key: 'plan', by: 'agent', shows: 'value', tick: 1 }),
    ]);
    expect(memory.problems).toEqual([]);
  });

  it('takes the person’s edit: LeMMing’s file format on disk, and a memory_update by the person in the timeline', async () => {
    const { harness, org } = await demoAfterOneTick();
    const edited = valueOf<AgentMemory>(
      await harness.dispatch('memory.edit', {
        action: 'set',
        agent: 'manager',
        key: 'plan',
        value: { goal: 'launch note', status: 'on hold until Monday' },
      }),
    );
    expect(edited.entries.find((entry) => entry.key === 'plan')?.value).toEqual({
      goal: 'launch note',
      status: 'on hold until Monday',
    });
    expect(edited.history[0]).toMatchObject({
      key: 'plan',
      by: 'person',
      shows: 'value',
      values: [{ goal: 'launch note', status: 'on hold until Monday' }],
    });
    const file = JSON.parse(readFileSync(join(org, 'agents', 'manager', 'memory', 'plan.json'), 'utf8'));
    expect(Object.keys(file)).toEqual(['key', 'value', 'timestamp_utc', 'agent', 'operation', 'tick']);
    expect(file).toMatchObject({ key: 'plan', agent: 'manager', operation: 'set', tick: 2 });

    const page = valueOf<TimelinePage>(
      await harness.dispatch('timeline.page', { kinds: ['memory_update'], limit: 5 }),
    );
    const newest = valueOf<{ json: string }>(
      await harness.dispatch('timeline.get', { seq: page.rows[0]!.seq }),
    );
    expect(JSON.parse(newest.json)).toMatchObject({
      kind: 'memory_update',
      agent: 'manager',
      key: 'plan',
      op: 'set',
      by: 'human',
    });
    expect(harness.events.some((event) => event.name === 'timeline.appended')).toBe(true);

    const removed = valueOf<AgentMemory>(
      await harness.dispatch('memory.edit', { action: 'remove', agent: 'manager', key: 'plan' }),
    );
    expect(removed.entries).toEqual([]);
    expect(removed.history[0]).toMatchObject({ key: 'plan', by: 'person', shows: 'removed' });
    expect(existsSync(join(org, 'agents', 'manager', 'memory', 'plan.json'))).toBe(false);
  });

  it('names each memory after its file, and says which files cannot be read', async () => {
    const { harness, org } = await demoAfterOneTick();
    const folder = join(org, 'agents', 'manager', 'memory');
    writeFileSync(
      join(folder, 'notes.json'),
      JSON.stringify({ key: 'plan', value: 'a record whose key is not its file name' }),
    );
    writeFileSync(join(folder, 'broken.json'), '{ "key": "broken", ');
    const memory = valueOf<AgentMemory>(await harness.dispatch('memory.get', { agent: 'manager' }));
    expect(memory.entries.map((entry) => entry.key)).toEqual(['notes', 'plan']);
    expect(memory.problems).toEqual([expect.objectContaining({ file: 'agents/manager/memory/broken.json' })]);
  });

  it('refuses a key LeMMing could not store, at the key, and changes nothing', async () => {
    const { harness, org } = await demoAfterOneTick();
    expect(
      await harness.dispatch('memory.edit', {
        action: 'set',
        agent: 'manager',
        key: '../resume',
        value: 'x',
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_change',
        issues: [{ path: 'key', message: expect.stringContaining('invalid') }],
      },
    });
    expect(existsSync(join(org, 'agents', 'manager', 'memory', '..', 'resume.json.json'))).toBe(false);
    expect(
      await harness.dispatch('memory.edit', { action: 'remove', agent: 'manager', key: 'never-was' }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
