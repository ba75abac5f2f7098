import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../engine/api/job-schemas';
import { BULK_BATCH_SIZE } from '../../engine/timeline/timeline-store';
import { ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

const EVENTS = BULK_BATCH_SIZE * 4;

/** The demo org with a timeline of EVENTS more events than it starts with. */
async function demoWithLongTimeline(): Promise<{ harness: IpcHarness; total: number }> {
  const { harness } = await harnesses.openDemo();
  const timeline = harness.host.current()!.engine.timeline;
  timeline.appendMany(Array.from({ length: EVENTS }, (_, n) => ({ kind: 'note', agent: 'manager', n })));
  return { harness, total: timeline.latestSeq() };
}

function progressOf(harness: IpcHarness): JobProgress[] {
  return harness.events
    .filter((event) => event.name === 'job.progress')
    .map((event) => event.payload as JobProgress);
}

describe('a timeline export as a job', () => {
  it('tells its progress, from none of the events to all of them, and ends', async () => {
    const { harness, total } = await demoWithLongTimeline();
    const file = join(harness.tempDir(), 'all.jsonl');
    harness.setExportFile(file);

    const answer = valueOf(await harness.dispatch('timeline.export', {}));

    expect(answer).toEqual({ path: file, exported: total });
    const told = progressOf(harness);
    expect(told[0]).toMatchObject({ kind: 'timeline_export', done: 0, total, ended: false });
    expect(told.at(-1)).toMatchObject({ kind: 'timeline_export', done: total, total, ended: true });
    expect(new Set(told.map((progress) => progress.id)).size).toBe(1);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(total);
  });

  it('cancelled while it writes, it stops, leaves no file and says so as a cancelled pick does', async () => {
    const { harness } = await demoWithLongTimeline();
    const folder = harness.tempDir();
    const file = join(folder, 'cancelled.jsonl');
    harness.setExportFile(file);
    let cancelled: Promise<unknown> | null = null;
    // The person presses Cancel as soon as the export says it started.
    harness.host.events.on((name, payload) => {
      if (name === 'job.progress' && !cancelled)
        cancelled = harness.dispatch('jobs.cancel', { id: (payload as JobProgress).id });
    });

    const answer = valueOf(await harness.dispatch('timeline.export', {}));

    expect(valueOf(await cancelled)).toEqual({ cancelled: true });
    expect(answer).toEqual({ path: null, exported: 0 });
    const last = progressOf(harness).at(-1)!;
    expect(last.ended).toBe(true);
    expect(last.done).toBeLessThan(last.total);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(folder)).toEqual([]);
    expect(valueOf(await harness.dispatch('jobs.cancel', { id: last.id }))).toEqual({ cancelled: false });
  });
});

describe('a timeline import as a job', () => {
  it('tells its progress in bytes of the file, and cancelled it keeps what it imported, counted', async () => {
    const { harness, total } = await demoWithLongTimeline();
    const file = join(harness.tempDir(), 'all.jsonl');
    harness.setExportFile(file);
    valueOf(await harness.dispatch('timeline.export', {}));
    harness.setImportFile(file);
    const size = statSync(file).size;

    const whole = valueOf<{ imported: number }>(await harness.dispatch('timeline.import', {}));
    expect(whole.imported).toBe(total);
    const importing = progressOf(harness).filter((progress) => progress.kind === 'timeline_import');
    expect(importing[0]).toMatchObject({ done: 0, total: size, ended: false });
    expect(importing.at(-1)).toMatchObject({ done: size, total: size, ended: true });

    const timeline = harness.host.current()!.engine.timeline;
    const before = timeline.latestSeq();
    let cancelled: Promise<unknown> | null = null;
    harness.host.events.on((name, payload) => {
      const progress = payload as JobProgress;
      if (name === 'job.progress' && progress.kind === 'timeline_import' && !progress.ended && !cancelled)
        cancelled = harness.dispatch('jobs.cancel', { id: progress.id });
    });
    const cut = valueOf<{ imported: number }>(await harness.dispatch('timeline.import', {}));
    expect(valueOf(await cancelled)).toEqual({ cancelled: true });
    expect(cut.imported).toBeLessThan(total);
    expect(timeline.latestSeq() - before).toBe(cut.imported);
  });
});
