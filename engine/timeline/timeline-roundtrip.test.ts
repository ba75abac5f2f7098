import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TimelineEventInput } from '../api/timeline-events';
import { tempTimelineDir } from './test-support/temp-timeline';

/** An event of a kind the app has never heard of, built to trip up anything that re-encodes JSON. */
function strangeEvent(): TimelineEventInput {
  let deep: unknown = { bottom: 'still here', n: 0.1 };
  for (let level = 0; level < 60; level++)
    deep = { level, next: deep, list: [level, { inner: [deep === null] }] };
  // Parsed from text so that "__proto__" is an own key, as it is in JSON read from a file.
  const parsedKeys = JSON.parse(
    '{"__proto__": {"polluted": true}, "": "empty key", "constructor": "c"}',
  ) as Record<string, unknown>;
  return {
    zeta: 'keys out of alphabetical order',
    kind: 'quantum_flux_report',
    agent: 'ünïcödé-agent',
    tick: 42,
    alpha: 1,
    numbers: {
      big: 1e21,
      small: 0.1,
      sum: 0.1 + 0.2,
      tiny: 1.5e-7,
      safe: Number.MAX_SAFE_INTEGER,
      negative: -12.5,
    },
    text: 'emoji 🧪🧬, CJK 請求書, RTL مرحبا, combining é, zero width \u200b, separators \u2028 \u2029, escapes " \\ \n \t \u0000 \u001f',
    lone: 'lone surrogate \ud800 kept as an escape',
    mixed: [null, true, false, [], {}, '', 0, -1, [[[]]]],
    deep,
    ...parsedKeys,
  } as TimelineEventInput;
}

describe('an event of an unknown kind with unknown nested fields', () => {
  let temp: Awaited<ReturnType<typeof tempTimelineDir>>;
  beforeEach(async () => {
    temp = await tempTimelineDir();
  });
  afterEach(async () => {
    await temp.cleanup();
  });

  it('survives append → query → export → import → query → export with its JSON text unchanged', async () => {
    const event = strangeEvent();
    const produced = JSON.stringify(event);
    const source = temp.open('source.sqlite');
    source.append({ kind: 'message', agent: 'bob', tick: 41, text: 'an ordinary neighbour' });
    const seq = source.append(event);

    const row = source.get(seq);
    expect(row).toEqual({
      seq,
      kind: 'quantum_flux_report',
      agent: 'ünïcödé-agent',
      tick: 42,
      runId: null,
      time: null,
      json: produced,
    });
    expect(source.page({ kinds: ['quantum_flux_report'] }).rows.map((found) => found.json)).toEqual([
      produced,
    ]);

    const firstExport = join(temp.dir, 'first.jsonl');
    expect(await source.exportJsonl(firstExport)).toEqual({ exported: 2 });
    const exportedLines = (await readFile(firstExport, 'utf8')).split('\n');
    expect(exportedLines[1]).toBe(produced);

    const copy = temp.open('copy.sqlite');
    expect(await copy.importJsonl(firstExport)).toEqual({ imported: 2, skipped: [], skippedCount: 0 });
    const imported = copy.page({ agents: ['ünïcödé-agent'] }).rows;
    expect(imported.map((found) => found.json)).toEqual([produced]);
    expect(JSON.parse(imported[0]!.json)).toEqual(JSON.parse(produced));

    const secondExport = join(temp.dir, 'second.jsonl');
    await copy.exportJsonl(secondExport);
    expect(await readFile(secondExport)).toEqual(await readFile(firstExport));
  });

  it('keeps an imported line byte for byte, spacing and number spelling included', async () => {
    const line =
      '{ "kind" : "legacy_thing",  "n": 1E21, "f": 0.10, "e": "\\u00e9", "dup": 1, "dup": 2, "agent":"old" }';
    const file = join(temp.dir, 'hand-written.jsonl');
    await writeFile(file, `${line}\n`);
    const timeline = temp.open();
    await timeline.importJsonl(file);

    const [row] = timeline.page({ kinds: ['legacy_thing'] }).rows;
    expect(row?.json).toBe(line);
    expect(row?.agent).toBe('old');

    const out = join(temp.dir, 'out.jsonl');
    await timeline.exportJsonl(out);
    expect(await readFile(out, 'utf8')).toBe(`${line}\n`);
  });
});
