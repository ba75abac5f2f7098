import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../engine/secrets/redactor';
import { openAppLog } from './app-log';
import { DEFAULT_DESKTOP_SETTINGS } from './desktop-settings';
import { diagnosticsArchive, diagnosticsFileName } from './diagnostics';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const KEY = 'sk-ant-api03-Zq7Wx9Vt5Rs3Pq1No';

function everyFileUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('Copy Diagnostics', () => {
  it('makes a zip of versions, settings, logs and the org report with no secret value in it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-diag-'));
    made.push(dir);
    const logs = join(dir, 'logs');
    // A line written before the key was stored holds it in the clear; the archive must not.
    const log = openAppLog({ folder: logs, redact: (text) => text });
    log.error('engine thread', new Error(`401 for key ${KEY}`));
    const redactor = createRedactor([{ name: 'ANTHROPIC_API_KEY', value: KEY }]);

    const archive = diagnosticsArchive({
      appInfo: {
        name: 'LeMMing Desktop',
        version: '1.0.0',
        platform: 'linux',
        runtime: { node: '24', electron: '39', chrome: '142', sqlite: '3.50' },
      },
      system: { platform: 'linux', release: '6.1', arch: 'x64' },
      settings: DEFAULT_DESKTOP_SETTINGS,
      logFiles: log.files(),
      org: {
        path: '/orgs/acme',
        status: { nextTick: 4, note: `header was Bearer ${KEY}` },
        agents: [{ name: 'clerk', problems: [] }],
      },
      redact: (text) => redactor.redactText(text),
      now: new Date('2026-11-27T21:40:00Z'),
    });
    writeFileSync(join(dir, 'diagnostics.zip'), archive);
    execFileSync('unzip', ['-q', 'diagnostics.zip', '-d', 'out'], { cwd: dir });

    const files = everyFileUnder(join(dir, 'out')).map((file) => file.slice(join(dir, 'out').length + 1));
    expect(files.sort()).toEqual(
      [
        'README.txt',
        'logs/lemming-desktop.log',
        'org/agents.json',
        'org/report.json',
        'settings.json',
        'versions.json',
      ].sort(),
    );
    for (const file of everyFileUnder(join(dir, 'out')))
      expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(readFileSync(join(dir, 'out', 'logs', 'lemming-desktop.log'), 'utf8')).toContain(
      '401 for key [redacted:ANTHROPIC_API_KEY]',
    );
    expect(JSON.parse(readFileSync(join(dir, 'out', 'versions.json'), 'utf8'))).toMatchObject({
      version: '1.0.0',
      system: { release: '6.1' },
    });
  });

  it('suggests a file name with the date and time', () => {
    expect(diagnosticsFileName(new Date('2026-11-27T21:40:13Z'))).toBe(
      'lemming-diagnostics-2026-11-27-2140.zip',
    );
  });
});
