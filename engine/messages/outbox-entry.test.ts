import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonJsonDumps } from '../memory/python-format';
import {
  formatTick,
  humanMessage,
  newOutboxEntry,
  newOutboxId,
  OUTBOX_ENTRY_KEYS,
  outboxFileName,
  parseOutboxFileName,
  readOutboxEntryText,
  serializeEntry,
} from './outbox-entry';

const AGENTS = resolve(
  import.meta.dirname,
  '../../../shared/fixtures/lemming-upstream/engine-output/happy_path/agents',
);
const FIXTURE_FILES = readdirSync(AGENTS).flatMap((agent) => {
  const outbox = join(AGENTS, agent, 'outbox');
  try {
    return readdirSync(outbox).map((name) => join(outbox, name));
  } catch {
    return [];
  }
});

/** LeMMing's own names: `{tick:08d}_{uuid4().hex}.json`. */
const LEMMING_FILE_NAME = /^[0-9]{8,}_[0-9a-f]{32}\.json$/;
const NOW = new Date(Date.UTC(2026, 4, 11, 19, 11, 12, 913));

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomJson(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 5 : 7));
  const text = () =>
    Array.from({ length: Math.floor(random() * 6) }, () =>
      String.fromCodePoint([0x41, 0xe9, 0x1f600, 0x0a, 0x22, 0x7f][Math.floor(random() * 6)] ?? 0x41),
    ).join('');
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.floor(random() * 2000) - 1000;
    case 3:
      return random() * 10 ** Math.floor(random() * 40 - 20);
    case 4:
      return text();
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, () => [text(), randomJson(random, depth + 1)]),
      );
  }
}

describe('the fixture outbox files LeMMing wrote', () => {
  it('are all there to test against', () => {
    expect(FIXTURE_FILES.length).toBeGreaterThanOrEqual(11);
  });

  it.each(FIXTURE_FILES)('%s reads cleanly and re-serializes to the same bytes', (file) => {
    const text = readFileSync(file, 'utf8');
    const read = readOutboxEntryText(text, file);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.warnings).toEqual([]);
    expect(read.value.extra).toEqual({});
    expect(Object.keys(read.raw)).toEqual([...OUTBOX_ENTRY_KEYS]);
    const { extra: _extra, ...entry } = read.value;
    expect(serializeEntry(entry)).toBe(text);
    expect(outboxFileName(entry)).toBe(file.split(/[\\/]/).pop());
  });
});

describe('newOutboxEntry', () => {
  it("builds exactly LeMMing's nine keys, in LeMMing's order", () => {
    const entry = newOutboxEntry(
      {
        agent: 'manager',
        tick: 3,
        kind: 'request',
        payload: { text: 'Draft it', priority: 'high' },
        tags: ['delegation'],
        recipients: ['spec_writer'],
      },
      NOW,
    );
    expect(Object.keys(entry)).toEqual([...OUTBOX_ENTRY_KEYS]);
    expect(Object.keys(JSON.parse(serializeEntry(entry)))).toEqual([...OUTBOX_ENTRY_KEYS]);
    expect(entry).toMatchObject({
      tick: 3,
      agent: 'manager',
      kind: 'request',
      tags: ['delegation'],
      recipients: ['spec_writer'],
      meta: {},
    });
    expect(entry.created_at).toBe('2026-05-11T19:11:12.913000+00:00');
    expect(entry.id).toMatch(/^[0-9a-f]{32}$/);
    expect(outboxFileName(entry)).toMatch(LEMMING_FILE_NAME);
    expect(outboxFileName(entry)).toBe(`00000003_${entry.id}.json`);
  });

  it('defaults like LeMMing: kind message, empty payload, tags and meta, recipients null', () => {
    const entry = newOutboxEntry({ agent: 'a', tick: 1 }, NOW, 'f'.repeat(32));
    expect(serializeEntry(entry)).toBe(
      '{\n  "id": "ffffffffffffffffffffffffffffffff",\n  "tick": 1,\n  "agent": "a",\n  "kind": "message",\n  "payload": {},\n  "tags": [],\n' +
        '  "created_at": "2026-05-11T19:11:12.913000+00:00",\n  "recipients": null,\n  "meta": {}\n}',
    );
  });

  it("does not share the caller's objects", () => {
    const payload = { text: 'x' };
    const tags = ['t'];
    const entry = newOutboxEntry({ agent: 'a', tick: 1, payload, tags }, NOW);
    payload.text = 'changed';
    tags.push('more');
    expect(entry.payload).toEqual({ text: 'x' });
    expect(entry.tags).toEqual(['t']);
  });

  it('gives fresh uuid4 hex ids and times that sort in creation order', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newOutboxId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    const times = Array.from({ length: 50 }, () => newOutboxEntry({ agent: 'a', tick: 1 }).created_at);
    expect([...times].sort()).toEqual(times);
    expect(times[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
  });

  it('always writes exactly the nine keys and reads back to the same entry, for random contents', () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 500; trial += 1) {
      const payload = Object.fromEntries([
        ['text', String(randomJson(random))],
        ...Object.entries((randomJson(random) as object) ?? {}),
      ]);
      const entry = newOutboxEntry(
        {
          agent: `agent_${trial}`,
          tick: Math.floor(random() * 10 ** Math.floor(random() * 10)),
          kind: String(randomJson(random)),
          payload: typeof payload === 'object' ? payload : {},
          tags: [randomJson(random), randomJson(random)],
          recipients: random() < 0.5 ? null : [String(randomJson(random))],
          meta: { source: randomJson(random), extension: randomJson(random) },
        },
        new Date(Math.floor(random() * 4e12)),
      );
      const text = serializeEntry({
        ...entry,
        ...({ extra_top_level: 'never written' } as object),
      } as typeof entry);
      expect(Object.keys(JSON.parse(text))).toEqual([...OUTBOX_ENTRY_KEYS]);
      expect(text).toMatch(/^[\x20-\x7e\n]*$/);
      const name = outboxFileName(entry);
      expect(name).toMatch(LEMMING_FILE_NAME);
      expect(parseOutboxFileName(name)).toEqual({ tick: entry.tick, id: entry.id });
      const read = readOutboxEntryText(text, join('agents', entry.agent, 'outbox', name));
      if (!read.ok) throw new Error(read.error.message);
      expect(read.value).toEqual({ ...JSON.parse(text), extra: {} });
      expect(pythonJsonDumps(read.raw, 2)).toBe(text);
    }
  });
});

describe('humanMessage', () => {
  it("has the shape of LeMMing's human message fixture", () => {
    const file = FIXTURE_FILES.find((path) => path.includes(`${join('human', 'outbox')}`));
    if (!file) throw new Error('human fixture missing');
    const fixture = JSON.parse(readFileSync(file, 'utf8'));
    const ours = humanMessage(
      'Please get me a spec for the login page.',
      { tick: 1, importance: 'high', target: 'manager' },
      NOW,
      fixture.id,
    );
    expect({ ...ours, created_at: fixture.created_at }).toEqual(fixture);
    expect(Object.keys(ours.payload)).toEqual(['text', 'importance', 'target']);
  });

  it('defaults importance to normal', () => {
    expect(humanMessage('hi', { tick: 4, target: null }).payload).toEqual({
      text: 'hi',
      importance: 'normal',
      target: null,
    });
  });
});

describe('outbox file names', () => {
  it('pads the tick to eight digits like Python, sign included, and lets large ticks grow', () => {
    expect(formatTick(3)).toBe('00000003');
    expect(formatTick(0)).toBe('00000000');
    expect(formatTick(123_456_789)).toBe('123456789');
    expect(formatTick(-5)).toBe('-0000005');
  });

  it('refuses to build a name from a bad tick or an id that would escape the folder', () => {
    expect(() => outboxFileName({ tick: 1.5, id: 'abc' })).toThrow(RangeError);
    expect(() => outboxFileName({ tick: 1, id: '../../resume' })).toThrow(/cannot be part of a file name/);
    expect(() => outboxFileName({ tick: 1, id: '' })).toThrow(RangeError);
  });

  it('parses only the names LeMMing reads', () => {
    expect(parseOutboxFileName('00000003_0043a1.json')).toEqual({ tick: 3, id: '0043a1' });
    expect(parseOutboxFileName('12_a_b.json')).toEqual({ tick: 12, id: 'a_b' });
    expect(parseOutboxFileName('msg_123.json')).toBeNull();
    expect(parseOutboxFileName('-0000005_abc.json')).toBeNull();
    expect(parseOutboxFileName('00000003.json')).toBeNull();
    expect(parseOutboxFileName('00000003_abc.json.tmp')).toBeNull();
    expect(parseOutboxFileName('99999999999999999999_abc.json')).toBeNull();
  });
});

describe('readOutboxEntryText, lenient where LeMMing skips the file', () => {
  const file = join('org', 'agents', 'manager', 'outbox', '00000007_abcdef.json');

  it('accepts legacy timestamp, missing meta/recipients/tags, a non-text kind and extra top-level keys', () => {
    const text = JSON.stringify(
      {
        id: 'abcdef',
        tick: 7,
        agent: 'manager',
        kind: 5,
        payload: { text: 'hi' },
        timestamp: '2025-12-01T10:00:00+00:00',
        importance: 'high',
      },
      null,
      2,
    );
    const read = readOutboxEntryText(text, file);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value).toEqual({
      id: 'abcdef',
      tick: 7,
      agent: 'manager',
      kind: '5',
      payload: { text: 'hi' },
      tags: [],
      created_at: '2025-12-01T10:00:00+00:00',
      recipients: null,
      meta: {},
      extra: { importance: 'high' },
    });
    expect(read.raw.kind).toBe(5);
    expect(read.warnings).toMatchObject([
      { field: 'kind', line: 5, message: expect.stringContaining('not text') },
    ]);
  });

  it('keeps unknown kinds as they are', () => {
    const read = readOutboxEntryText(
      JSON.stringify({ id: 'a', tick: 1, agent: 'x', kind: 'vote', payload: {}, tags: [], created_at: 't' }),
      file,
    );
    expect(read).toMatchObject({ ok: true, value: { kind: 'vote' }, warnings: [] });
  });

  it('fills a missing id, tick and sender from the file name and folder', () => {
    const read = readOutboxEntryText('{"payload": "plain text", "created_at": "t"}', file);
    expect(read).toMatchObject({
      ok: true,
      value: { id: 'abcdef', tick: 7, agent: 'manager', payload: { text: 'plain text' } },
    });
  });

  it('locates problems by file, field, line and column', () => {
    const broken = readOutboxEntryText('{\n  "id": "x",\n  "tick": 1,\n  oops\n}', file);
    expect(broken).toMatchObject({
      ok: false,
      error: { file, field: '', line: 4, message: expect.stringMatching(/^invalid JSON/) },
    });
    const noSender = readOutboxEntryText('{\n  "id": "x",\n  "tick": 1\n}', 'loose.json');
    expect(noSender).toMatchObject({
      ok: false,
      error: { file: 'loose.json', field: 'agent', message: 'the entry does not say which agent sent it' },
    });
    const noTick = readOutboxEntryText('{"id": "x", "agent": "a", "tick": "soon"}', 'msg_1.json');
    expect(noTick).toMatchObject({ ok: false, error: { field: 'tick', line: 1, column: 35 } });
    expect(readOutboxEntryText('[]', file)).toMatchObject({
      ok: false,
      error: { message: 'expected a JSON object, found a list' },
    });
  });

  it('warns about fields of the wrong shape and still reads the entry', () => {
    const read = readOutboxEntryText(
      JSON.stringify({ id: 'a', tick: 1, agent: 'x', payload: 3, tags: 't', recipients: [1], meta: [] }),
      file,
    );
    expect(read).toMatchObject({
      ok: true,
      value: { payload: {}, tags: [], recipients: null, meta: {}, created_at: '' },
    });
    if (read.ok)
      expect(read.warnings.map((warning) => warning.field).sort()).toEqual([
        'created_at',
        'meta',
        'payload',
        'recipients',
        'tags',
      ]);
  });
});
