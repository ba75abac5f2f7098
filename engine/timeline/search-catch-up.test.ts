import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from './migrate';
import { timelineMigrations } from './migrations';
import { openSqlite } from './sqlite';
import { tempTimelineDir } from './test-support/temp-timeline';
import { BULK_BATCH_SIZE, TimelineReadOnlyError, type TimelineStore } from './timeline-store';

const APPEND_THEN_DIE = fileURLToPath(new URL('./test-support/append-then-die.ts', import.meta.url));

let temp: Awaited<ReturnType<typeof tempTimelineDir>>;
beforeEach(async () => {
  temp = await tempTimelineDir();
});
afterEach(async () => {
  await temp.cleanup();
});

/** Seqs the FTS index itself matches for `word`, without the catch-up that page() does first. */
function indexedSeqs(timeline: TimelineStore, word: string): number[] {
  return timeline.db
    .prepare('SELECT rowid FROM events_search WHERE events_search MATCH ? ORDER BY rowid')
    .pluck()
    .all(`"${word}"`) as number[];
}

function seqsFound(timeline: TimelineStore, text: string): number[] {
  return timeline.page({ text, direction: 'asc' }).rows.map((row) => row.seq);
}

describe('search indexing follows the events', () => {
  it('leaves appended events out of the index until catchUpSearch indexes them, once', () => {
    const timeline = temp.open();
    timeline.appendMany([
      { kind: 'message', text: 'pay the invoice' },
      { kind: 'skip', reason: 'paused' },
    ]);
    expect(indexedSeqs(timeline, 'invoice')).toEqual([]);
    expect(timeline.unsearchedEvents()).toBe(2);

    expect(timeline.catchUpSearch()).toBe(2);
    expect(indexedSeqs(timeline, 'invoice')).toEqual([1]);
    expect(timeline.unsearchedEvents()).toBe(0);
    expect(timeline.catchUpSearch()).toBe(0);
    expect(indexedSeqs(timeline, 'invoice')).toEqual([1]);
  });

  it('catches up more events than one batch, in batches', () => {
    const timeline = temp.open();
    const count = BULK_BATCH_SIZE * 2 + 1;
    timeline.appendMany(Array.from({ length: count }, (_, index) => ({ kind: 'n', text: `word${index}` })));
    expect(timeline.catchUpSearch()).toBe(count);
    expect(indexedSeqs(timeline, 'word0')).toEqual([1]);
    expect(indexedSeqs(timeline, `word${count - 1}`)).toEqual([count]);
  });

  it('a text page on a writable store finds an event appended a moment ago', () => {
    const timeline = temp.open();
    timeline.append({ kind: 'message', text: 'first budget' });
    expect(seqsFound(timeline, 'budget')).toEqual([1]);
    timeline.append({ kind: 'message', text: 'second budget' });
    expect(seqsFound(timeline, 'budget')).toEqual([1, 2]);
    expect(timeline.unsearchedEvents()).toBe(0);
  });

  it('a text export on a writable store includes an event appended a moment ago', async () => {
    const timeline = temp.open();
    timeline.append({ kind: 'message', text: 'deploy now' });
    expect(await timeline.exportJsonl(join(temp.dir, 'out.jsonl'), { text: 'deploy' })).toEqual({
      exported: 1,
    });
  });

  it('a read-only store reports what it cannot find yet and finds only indexed events', () => {
    const writer = temp.open();
    writer.append({ kind: 'message', text: 'indexed invoice' });
    writer.catchUpSearch();
    writer.appendMany([
      { kind: 'message', text: 'fresh invoice' },
      { kind: 'message', text: 'fresh budget' },
    ]);

    const reader = temp.open('timeline.sqlite', { readonly: true });
    expect(reader.unsearchedEvents()).toBe(2);
    expect(seqsFound(reader, 'invoice')).toEqual([1]);
    expect(() => reader.catchUpSearch()).toThrow(TimelineReadOnlyError);
    expect(reader.page({ direction: 'asc' }).rows.map((row) => row.seq)).toEqual([1, 2, 3]);

    writer.catchUpSearch();
    expect(reader.unsearchedEvents()).toBe(0);
    expect(seqsFound(reader, 'invoice')).toEqual([1, 2]);
  });

  it('close() leaves nothing unsearched', () => {
    const writer = temp.open();
    writer.appendMany([{ kind: 'message', text: 'closing report' }]);
    writer.close();
    const reader = temp.open('timeline.sqlite', { readonly: true });
    expect(reader.unsearchedEvents()).toBe(0);
    expect(seqsFound(reader, 'report')).toEqual([1]);
  });

  it('two writers catching up at once index every event exactly once', () => {
    const first = temp.open();
    const second = temp.open();
    first.appendMany([{ kind: 'message', text: 'meeting one' }]);
    second.appendMany([{ kind: 'message', text: 'meeting two' }]);
    expect(second.catchUpSearch() + first.catchUpSearch()).toBe(2);
    first.append({ kind: 'message', text: 'meeting three' });
    expect(seqsFound(second, 'meeting')).toEqual([1, 2, 3]);
    expect(indexedSeqs(first, 'meeting')).toEqual([1, 2, 3]);
  });

  it('a row whose JSON does not parse is passed over without blocking the rows after it', () => {
    const timeline = temp.open();
    timeline.append({ kind: 'message', text: 'before' });
    timeline.db
      .prepare(`INSERT INTO events (kind, json) VALUES ('damaged', '{"kind": "damaged", oops')`)
      .run();
    timeline.append({ kind: 'message', text: 'after' });
    expect(timeline.catchUpSearch()).toBe(3);
    expect(timeline.unsearchedEvents()).toBe(0);
    expect(seqsFound(timeline, 'after')).toEqual([3]);
    expect(seqsFound(timeline, 'damaged')).toEqual([]);
  });

  it('an import is searchable when it returns', async () => {
    const file = join(temp.dir, 'in.jsonl');
    await writeFile(file, '{"kind":"message","text":"imported schedule"}\n{"kind":"skip"}\n');
    const timeline = temp.open();
    expect((await timeline.importJsonl(file)).imported).toBe(2);
    expect(timeline.unsearchedEvents()).toBe(0);
    expect(indexedSeqs(timeline, 'schedule')).toEqual([1]);
  });

  it('events appended by a process killed before its catch-up are found after reopening', async () => {
    const file = join(temp.dir, 'timeline.sqlite');
    temp.open().close();
    const output = await runToDeath(file, ['crashed', 'customer']);
    expect(output).toBe('APPENDED\n');

    const reader = temp.open('timeline.sqlite', { readonly: true });
    expect(reader.unsearchedEvents()).toBe(2);
    expect(seqsFound(reader, 'customer')).toEqual([]);
    reader.close();

    const writer = temp.open();
    expect(seqsFound(writer, 'customer')).toEqual([2]);
    expect(writer.unsearchedEvents()).toBe(0);
  });
});

describe('upgrading a timeline whose events were indexed as they were appended', () => {
  it('starts the search progress at the newest event, so nothing is indexed twice', () => {
    const file = join(temp.dir, 'timeline.sqlite');
    const old = openSqlite(file);
    expect(
      migrate(
        old,
        timelineMigrations.filter((step) => step.version <= 2),
      ),
    ).toMatchObject({ ok: true });
    const insertEvent = old.prepare('INSERT INTO events (kind, agent, run_id, json) VALUES (?, ?, ?, ?)');
    const insertText = old.prepare('INSERT INTO events_search (rowid, text) VALUES (?, ?)');
    for (const [index, text] of ['old invoice', 'old budget', 'old invoice again'].entries()) {
      const json = JSON.stringify({ kind: 'message', agent: 'ada', run: 'run-old', text });
      const seq = Number(insertEvent.run('message', 'ada', 'run-old', json).lastInsertRowid);
      expect(seq).toBe(index + 1);
      insertText.run(seq, `message\nada\n${text}`);
    }
    old.close();

    const timeline = temp.open();
    expect(timeline.unsearchedEvents()).toBe(0);
    expect(timeline.catchUpSearch()).toBe(0);
    expect(seqsFound(timeline, 'invoice')).toEqual([1, 3]);
    expect(timeline.page({ runId: 'run-old', direction: 'asc' }).rows.map((row) => row.seq)).toEqual([
      1, 2, 3,
    ]);
    expect(timeline.page({ agents: ['ada'], direction: 'asc' }).rows.map((row) => row.seq)).toEqual([
      1, 2, 3,
    ]);

    timeline.append({ kind: 'message', agent: 'ada', text: 'new invoice' });
    expect(seqsFound(timeline, 'invoice')).toEqual([1, 3, 4]);
  });
});

function runToDeath(file: string, words: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', APPEND_THEN_DIE, file, ...words], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(stdout);
      else reject(new Error(`the child was expected to die by SIGKILL; it exited: ${stderr}`));
    });
  });
}
