import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crashReportsNotYetShown } from './crash-reports';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('crash reports', () => {
  it('are offered once, on the next start after they were written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-crash-'));
    made.push(dir);
    const dumps = join(dir, 'Crashpad', 'completed');
    mkdirSync(dumps, { recursive: true });
    expect(await crashReportsNotYetShown(join(dir, 'Crashpad'), dir)).toEqual([]);

    const first = join(dumps, 'a.dmp');
    writeFileSync(first, 'MDMP');
    utimesSync(first, new Date('2026-11-27T10:00:00Z'), new Date('2026-11-27T10:00:00Z'));
    expect(await crashReportsNotYetShown(join(dir, 'Crashpad'), dir)).toEqual([first]);
    expect(await crashReportsNotYetShown(join(dir, 'Crashpad'), dir)).toEqual([]);

    const second = join(dumps, 'b.dmp');
    writeFileSync(second, 'MDMP');
    utimesSync(second, new Date('2026-11-27T11:00:00Z'), new Date('2026-11-27T11:00:00Z'));
    expect(await crashReportsNotYetShown(join(dir, 'Crashpad'), dir)).toEqual([second]);
  });
});
