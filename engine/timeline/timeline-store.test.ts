import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidTimelineEventError } from './event-record';
import type { TimelineEventInput } from '../api/timeline-events';
import type { TimelineQuery } from '../api/timeline-schemas';
import { tempTimelineDir } from './test-support/temp-timeline';
import { BULK_BATCH_SIZE, MAX_REPORTED_SKIPS, TimelineReadOnlyError } from './timeline-store';

let temp: Awaited<ReturnType<typeof tempTimelineDir>>;
beforeEach(async () => {
  temp = await tempTimelineDir();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('appending', () => {
  it('gives consecutive seqs, indexes the conventional keys, and reads back by seq', () => {
    const timeline = temp.open();
    expect(timeline.latestSeq()).toBe(0);
    const seqs = timeline.appendMany([
      { kind: 'tick_started', tick: 1, run: 'run-1', time: '2026-01-05T09:00:00.000Z' },
      { kind: 'message', agent: 'ada', tick: 1, turn: 'turn-1', entry: { text: 'hi' } },
    ]);
    expect(seqs).toEqual([1, 2]);
    expect(timeline.append({ kind: 'credit', agent: 'ada', tick: null, amount: -0.5 })).toBe(3);
    expect(timeline.latestSeq()).toBe(3);
    expect(timeline.get(1)).toEqual({
      seq: 1,
      kind: 'tick_started',
      agent: null,
      tick: 1,
      runId: 'run-1',
      time: '2026-01-05T09:00:00.000Z',
      json: '{"kind":"tick_started","tick":1,"run":"run-1","time":"2026-01-05T09:00:00.000Z"}',
    });
    expect(timeline.get(4)).toBeNull();
  });

  it('refuses an event without a kind, or with a conventional key of the wrong type, and stores none of the batch', () => {
    const timeline = temp.open();
    const withoutKind = { agent: 'ada' } as unknown as TimelineEventInput;
    expect(() => timeline.append(withoutKind)).toThrow(InvalidTimelineEventError);
    expect(() => timeline.append(withoutKind)).toThrow(/kind/);
    const stringTick = { kind: 'message', tick: '7' } as unknown as TimelineEventInput;
    expect(() => timeline.appendMany([{ kind: 'fine' }, stringTick])).toThrow(/tick/);
    expect(timeline.latestSeq()).toBe(0);
  });

  it('refuses an event that is not JSON, naming its kind', () => {
    const timeline = temp.open();
    const cyclic: Record<string, unknown> = { kind: 'loop' };
    cyclic.self = cyclic;
    expect(() => timeline.append(cyclic as TimelineEventInput)).toThrow(/"loop" is not JSON/);
    expect(() => timeline.append({ kind: 'big', n: 10n } as unknown as TimelineEventInput)).toThrow(
      InvalidTimelineEventError,
    );
  });

  it('commits events with the caller’s own rows in one transaction, or neither', () => {
    const timeline = temp.open();
    timeline.db.exec('CREATE TABLE side_effects (note TEXT)');
    const failing = () =>
      timeline.transaction(() => {
        timeline.append({ kind: 'message', agent: 'ada' });
        timeline.db.prepare('INSERT INTO side_effects (note) VALUES (?)').run('charged');
        throw new Error('model call failed');
      });
    expect(failing).toThrow('model call failed');
    expect(timeline.latestSeq()).toBe(0);
    expect(timeline.db.prepare('SELECT count(*) FROM side_effects').pluck().get()).toBe(0);

    const seqs = timeline.transaction(() => {
      timeline.db.prepare('INSERT INTO side_effects (note) VALUES (?)').run('charged');
      return timeline.appendMany([{ kind: 'a' }, { kind: 'b' }]);
    });
    expect(seqs).toEqual([1, 2]);
    expect(timeline.db.prepare('SELECT count(*) FROM side_effects').pluck().get()).toBe(1);
  });
});

describe('filters by agent and by run', () => {
  it('page an agent’s events in seq order however many kinds the timeline holds', () => {
    const timeline = temp.open();
    const events = Array.from({ length: 600 }, (_, index) => ({
      kind: `kind-${index % 90}`,
      agent: index % 3 === 0 ? 'ada' : 'bert',
    }));
    timeline.appendMany(events);
    const adaSeqs = events.flatMap((event, index) => (event.agent === 'ada' ? [index + 1] : [])).reverse();
    const pages: number[] = [];
    for (let cursor: number | null = null, first = true; first || cursor !== null; first = false) {
      const page = timeline.page({ agents: ['ada'], limit: 50, cursor });
      pages.push(...page.rows.map((row) => row.seq));
      cursor = page.nextCursor;
    }
    expect(pages).toEqual(adaSeqs);
    expect(timeline.explainPage({ agents: ['ada'] }).filter((step) => /^SCAN events\b/.test(step))).toEqual(
      [],
    );

    const fewKinds = temp.open('few-kinds.sqlite');
    fewKinds.appendMany([
      { kind: 'message', agent: 'ada' },
      { kind: 'skip', agent: 'bert' },
      { kind: 'credit', agent: 'ada' },
    ]);
    expect(fewKinds.page({ agents: ['ada'] }).rows.map((row) => row.seq)).toEqual([3, 1]);
    expect(fewKinds.explainPage({ agents: ['ada'] })).toContain('MERGE (UNION ALL)');
  });

  it('finds a run’s events by the seqs they were written at, also when its run started earlier', () => {
    const timeline = temp.open();
    timeline.appendMany([
      { kind: 'tick_started', run: 'run-1', tick: 1 },
      { kind: 'tick_started', run: 'run-2', tick: 1 },
    ]);
    timeline.appendMany([
      { kind: 'skip', run: 'run-1', tick: 2 },
      { kind: 'skip', tick: 2 },
    ]);
    const seqsOf = (query: TimelineQuery) =>
      timeline.page({ ...query, direction: 'asc' }).rows.map((row) => row.seq);
    expect(seqsOf({ runId: 'run-1' })).toEqual([1, 3]);
    expect(seqsOf({ runId: 'run-2' })).toEqual([2]);
    expect(seqsOf({ runId: 'run-2', tickFrom: 2 })).toEqual([]);
    expect(seqsOf({ runId: 'run-9' })).toEqual([]);
    expect(timeline.explainPage({ runId: 'run-1' }).join('\n')).toMatch(
      /USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/,
    );
  });
});

describe('text search', () => {
  const HOSTILE = [
    '"',
    '""',
    '"unterminated',
    'a"b',
    '-',
    '-invoice',
    '*',
    'invoice*',
    '* *',
    'NOT',
    'NOT invoice',
    'invoice OR budget',
    'invoice AND',
    'AND',
    'NEAR(invoice budget)',
    'NEAR/2',
    'text:invoice',
    'events_search:invoice',
    '{text}: invoice',
    '^invoice',
    '+invoice',
    '(',
    ')',
    '()',
    '[',
    "'",
    "'; DROP TABLE events; --",
    '\\',
    '\u0000',
    '\u0000invoice',
    '🧪',
    'invoice 🧪',
    '請求書',
    'é',
    '%',
    '_',
    'a'.repeat(1000),
    'x '.repeat(400),
    ':',
    '.',
    'rank:',
    'rowid',
    'MATCH',
  ];

  it('never throws on what a person might type, and treats it as words', () => {
    const timeline = temp.open();
    timeline.appendMany([
      { kind: 'message', text: 'please pay the invoice' },
      { kind: 'message', text: 'the budget is fine' },
      { kind: 'note', text: '請求書 attached 🧪' },
    ]);
    for (const text of HOSTILE) expect(() => timeline.page({ text }), text).not.toThrow();
    const kindsFound = (text: string) => timeline.page({ text }).rows.map((row) => row.seq);
    expect(kindsFound('-invoice')).toEqual([1]);
    expect(kindsFound('invoice OR budget')).toEqual([]);
    expect(kindsFound('NEAR(invoice')).toEqual([]);
    expect(kindsFound('"invoice"')).toEqual([1]);
    expect(kindsFound('請求書')).toEqual([3]);
    expect(kindsFound('*')).toEqual([3, 2, 1]);
    expect(
      timeline.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'events'`).pluck().get(),
    ).toBe(1);
  });

  it('matches words, not keys, with case and accents folded, and prefixes when asked with *', () => {
    const timeline = temp.open();
    timeline.appendMany([
      { kind: 'message', invoice: 'key only' },
      { kind: 'message', note: 'Café INVOICES' },
      { kind: 'tool_call', call: { tool: 'file_write', arguments: { path: 'notes/plan.md' } } },
    ]);
    const seqsOf = (text: string) => timeline.page({ text }).rows.map((row) => row.seq);
    expect(seqsOf('invoice')).toEqual([]);
    expect(seqsOf('invoice*')).toEqual([2]);
    expect(seqsOf('invoices')).toEqual([2]);
    expect(seqsOf('cafe')).toEqual([2]);
    expect(seqsOf('file_write')).toEqual([3]);
    expect(seqsOf('plan.md')).toEqual([3]);
    expect(seqsOf('write file')).toEqual([3]);
    expect(seqsOf('fil* pla*')).toEqual([3]);
  });
});

describe('read-only', () => {
  async function writtenTimeline(): Promise<string> {
    const file = join(temp.dir, 'written.sqlite');
    const writer = temp.open('written.sqlite');
    writer.appendMany([
      { kind: 'message', agent: 'ada', text: 'hello' },
      { kind: 'skip', agent: 'bert' },
    ]);
    writer.close();
    return file;
  }

  it('reads, searches and exports, but refuses every write, and leaves the file and folder as they were', async () => {
    const file = await writtenTimeline();
    const before = await readFile(file);
    const reader = temp.open('written.sqlite', { readonly: true });

    expect(reader.page({ text: 'hello' }).rows.map((row) => row.agent)).toEqual(['ada']);
    expect(() => reader.append({ kind: 'x' })).toThrow(TimelineReadOnlyError);
    expect(() => reader.appendMany([{ kind: 'x' }])).toThrow(/open read-only/);
    await expect(reader.importJsonl(join(temp.dir, 'whatever.jsonl'))).rejects.toThrow(TimelineReadOnlyError);
    expect(() => reader.db.prepare(`INSERT INTO events (kind, json) VALUES ('x', '{}')`).run()).toThrow(
      /readonly/,
    );
    await reader.exportJsonl(join(temp.dir, 'out.jsonl'));
    reader.close();

    expect(await readFile(file)).toEqual(before);
    expect((await readdir(temp.dir)).sort()).toEqual(['out.jsonl', 'written.sqlite']);
  });

  it('does not create a missing file', () => {
    const result = temp.openResult('missing.sqlite', { readonly: true });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toEqual({
        code: 'not_found',
        message: `${join(temp.dir, 'missing.sqlite')}: there is no timeline file here.`,
      });
    expect(existsSync(join(temp.dir, 'missing.sqlite'))).toBe(false);
  });

  it('refuses an empty file and a file that is not a database, without changing either', async () => {
    await writeFile(join(temp.dir, 'empty.sqlite'), '');
    await writeFile(join(temp.dir, 'notes.sqlite'), 'these are not the droids\n'.repeat(100));
    const empty = temp.openResult('empty.sqlite', { readonly: true });
    expect(!empty.ok && empty.error.code).toBe('empty');
    const notes = temp.openResult('notes.sqlite', { readonly: true });
    expect(!notes.ok && notes.error.code).toBe('not_a_database');
    const notesWritable = temp.openResult('notes.sqlite');
    expect(!notesWritable.ok && notesWritable.error.message).toMatch(
      /notes\.sqlite: the file is not an SQLite database\./,
    );
    expect(await readFile(join(temp.dir, 'empty.sqlite'), 'utf8')).toBe('');
    expect(await readFile(join(temp.dir, 'notes.sqlite'), 'utf8')).toBe(
      'these are not the droids\n'.repeat(100),
    );
  });
});

describe('import', () => {
  it('imports the events and reports every bad line by number, going on after each', async () => {
    const file = join(temp.dir, 'mixed.jsonl');
    const lines = [
      '{"kind":"message","agent":"ada","text":"first"}',
      '{"kind": "message", oops}',
      '[1, 2, 3]',
      '{"agent":"ada"}',
      '{"kind":"message","tick":"7"}',
      '',
      '{"kind":"credit","agent":"bert","amount":-1}\r',
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]).toString('latin1'),
      '{"kind":""}',
      '"just a string"',
      '{"kind":"skip","agent":"cleo"}',
    ];
    await writeFile(file, Buffer.from(lines.join('\n'), 'latin1'));
    const timeline = temp.open();
    const summary = await timeline.importJsonl(file);

    expect(summary.imported).toBe(3);
    expect(summary.skippedCount).toBe(7);
    expect(summary.skipped.map((skip) => skip.line)).toEqual([2, 3, 4, 5, 8, 9, 10]);
    const reasons = Object.fromEntries(summary.skipped.map((skip) => [skip.line, skip.reason]));
    expect(reasons[2]).toMatch(/^invalid JSON: .*\(column \d+\)$/);
    expect(reasons[3]).toBe('an event must be a JSON object');
    expect(reasons[4]).toMatch(/^kind: /);
    expect(reasons[5]).toMatch(/^tick: /);
    expect(reasons[8]).toBe('line is not valid UTF-8');
    expect(reasons[9]).toMatch(/^kind: /);
    expect(reasons[10]).toBe('an event must be a JSON object');
    expect(timeline.page({ direction: 'asc' }).rows.map((row) => row.json)).toEqual([
      lines[0],
      lines[6]!.slice(0, -1),
      lines[10],
    ]);
  });

  it('imports more events than fit in one batch, in file order', async () => {
    const count = BULK_BATCH_SIZE * 2 + 500;
    const file = join(temp.dir, 'many.jsonl');
    await writeFile(
      file,
      Array.from({ length: count }, (_, index) => JSON.stringify({ kind: 'n', n: index })).join('\n'),
    );
    const timeline = temp.open();
    expect(await timeline.importJsonl(file)).toEqual({ imported: count, skipped: [], skippedCount: 0 });
    expect(timeline.get(count)?.json).toBe(`{"kind":"n","n":${count - 1}}`);
  });

  it('lists the first skipped lines and counts them all', async () => {
    const file = join(temp.dir, 'bad.jsonl');
    await writeFile(file, 'nope\n'.repeat(MAX_REPORTED_SKIPS + 5));
    const summary = await temp.open().importJsonl(file);
    expect(summary.skipped).toHaveLength(MAX_REPORTED_SKIPS);
    expect(summary.skippedCount).toBe(MAX_REPORTED_SKIPS + 5);
  });

  it('fails with the path when the file cannot be read', async () => {
    await expect(temp.open().importJsonl(join(temp.dir, 'nowhere.jsonl'))).rejects.toThrow(
      /Could not import .*nowhere\.jsonl: ENOENT/,
    );
  });
});

describe('export', () => {
  it('writes the filtered events oldest first, across batches', async () => {
    const timeline = temp.open();
    const events = Array.from({ length: BULK_BATCH_SIZE * 3 }, (_, index) => ({
      kind: 'n',
      agent: index % 2 ? 'odd' : 'even',
      n: index,
    }));
    timeline.appendMany(events);
    const out = join(temp.dir, 'odd.jsonl');
    expect(await timeline.exportJsonl(out, { agents: ['odd'] })).toEqual({
      exported: (BULK_BATCH_SIZE * 3) / 2,
    });
    const expected = events
      .filter((event) => event.agent === 'odd')
      .map((event) => `${JSON.stringify(event)}\n`);
    expect(await readFile(out, 'utf8')).toBe(expected.join(''));
  });

  it('writes an empty file when nothing matches', async () => {
    const out = join(temp.dir, 'none.jsonl');
    expect(await temp.open().exportJsonl(out, { kinds: ['nothing'] })).toEqual({ exported: 0 });
    expect(await readFile(out, 'utf8')).toBe('');
  });

  it('fails with the path and leaves no partial file when the folder does not exist', async () => {
    const timeline = temp.open();
    timeline.append({ kind: 'n' });
    const out = join(temp.dir, 'missing-folder', 'out.jsonl');
    await expect(timeline.exportJsonl(out)).rejects.toThrow(
      /Could not export the timeline to .*missing-folder.*out\.jsonl/,
    );
    expect(
      (await readdir(temp.dir, { recursive: true })).filter((name) => !name.startsWith('timeline.sqlite')),
    ).toEqual([]);
  });
});
