import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../engine/secrets/redactor';
import { openAppLog } from './app-log';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logFolder() {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-log-'));
  made.push(dir);
  return dir;
}

const KEY = 'sk-live-4f9a8b7c6d5e4f3a2b1c';
const redactor = createRedactor([{ name: 'OPENAI_API_KEY', value: KEY }]);

describe('the app log', () => {
  it('writes errors with their context and stack, a stored secret replaced by its name', () => {
    const folder = logFolder();
    const log = openAppLog({ folder, redact: (text) => redactor.redactText(text) });
    log.error('engine thread', new Error(`The server refused the key ${KEY}`));
    log.info('app', 'started');
    const [file] = log.files();
    const text = readFileSync(file!, 'utf8');
    expect(text).toContain(
      'error [engine thread] Error: The server refused the key [redacted:OPENAI_API_KEY]',
    );
    expect(text).toContain('    at ');
    expect(text).toContain('info [app] started');
    expect(text).not.toContain(KEY);
  });

  it('rotates a full file and keeps only the newest few', () => {
    const folder = logFolder();
    const log = openAppLog({ folder, redact: (text) => text, maxBytes: 200, keep: 2 });
    for (let line = 0; line < 40; line++) log.info('tick', `line ${line} ${'x'.repeat(40)}`);
    const files = log.files();
    expect(files.map((file) => file.slice(folder.length + 1))).toEqual([
      'lemming-desktop.log',
      'lemming-desktop.1.log',
      'lemming-desktop.2.log',
    ]);
    expect(readFileSync(files[0]!, 'utf8')).toContain('line 39');
  });
});
