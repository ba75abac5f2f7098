import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonlLines, type JsonlLine } from './jsonl-lines';

describe('readJsonlLines', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lemming-jsonl-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function linesOf(content: Buffer | string, maxLineBytes?: number): Promise<JsonlLine[]> {
    const file = join(dir, 'events.jsonl');
    await writeFile(file, content);
    const lines: JsonlLine[] = [];
    for await (const line of readJsonlLines(file, maxLineBytes)) lines.push(line);
    return lines;
  }

  it('numbers lines from 1, skips blank ones, and reads a last line without a newline', async () => {
    expect(await linesOf('{"a":1}\n\n  \n{"b":2}')).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}' },
    ]);
  });

  it('ends lines at \\n or \\r\\n and keeps every other character, spaces included', async () => {
    expect(await linesOf(' {"a": 1.50} \r\n{"b":"\\r"}\n')).toEqual([
      { line: 1, text: ' {"a": 1.50} ' },
      { line: 2, text: '{"b":"\\r"}' },
    ]);
  });

  it('drops a byte order mark at the start of the file only', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const lines = await linesOf(
      Buffer.concat([bom, Buffer.from('{"a":1}\n'), bom, Buffer.from('{"b":2}\n')]),
    );
    expect(lines).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 2, text: '\ufeff{"b":2}' },
    ]);
  });

  it('reports a line that is not valid UTF-8 instead of replacing its bytes', async () => {
    const lines = await linesOf(
      Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"b":2}\n')]),
    );
    expect(lines).toEqual([
      { line: 1, problem: 'line is not valid UTF-8' },
      { line: 2, text: '{"b":2}' },
    ]);
  });

  it('skips an over-long line without holding it, and goes on with the next', async () => {
    const long = `{"a":"${'x'.repeat(200_000)}"}`;
    const lines = await linesOf(`{"first":1}\n${long}\n{"after":1}\n${long}`, 1000);
    expect(lines).toEqual([
      { line: 1, text: '{"first":1}' },
      { line: 2, problem: 'line is longer than 1000 bytes' },
      { line: 3, text: '{"after":1}' },
      { line: 4, problem: 'line is longer than 1000 bytes' },
    ]);
  });

  it('reassembles lines and multi-byte characters split across read chunks', async () => {
    const expected = Array.from(
      { length: 3000 },
      (_, index) => `{"n":${index},"s":"Zoë 請求書 ${'é'.repeat(index % 50)}"}`,
    );
    const lines = await linesOf(expected.join('\n'));
    expect(lines.map((line) => ('text' in line ? line.text : line.problem))).toEqual(expected);
    expect(lines.at(-1)?.line).toBe(3000);
  });
});
