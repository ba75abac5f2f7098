import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { zipArchive } from './zip-writer';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a zip archive', () => {
  it("opens in the system's unzip with every file whole, names in folders and in any script", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-zip-'));
    made.push(dir);
    const big = Buffer.alloc(300_000, 'abc');
    writeFileSync(
      join(dir, 'archive.zip'),
      zipArchive([
        { name: 'versions.json', data: '{"app":"1.0"}' },
        { name: 'logs/lemming-desktop.log', data: big },
        { name: 'notes/été.txt', data: 'bonjour' },
        { name: 'empty.txt', data: '' },
      ]),
    );
    execFileSync('unzip', ['-q', '-t', 'archive.zip'], { cwd: dir });
    execFileSync('unzip', ['-q', 'archive.zip', '-d', 'out'], { cwd: dir });
    expect(readFileSync(join(dir, 'out', 'versions.json'), 'utf8')).toBe('{"app":"1.0"}');
    expect(readFileSync(join(dir, 'out', 'logs', 'lemming-desktop.log')).equals(big)).toBe(true);
    expect(readFileSync(join(dir, 'out', 'notes', 'été.txt'), 'utf8')).toBe('bonjour');
    expect(readFileSync(join(dir, 'out', 'empty.txt'), 'utf8')).toBe('');
  });
});
