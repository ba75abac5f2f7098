import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileSecretStore } from '../../engine/secrets/file-secret-store';
import { openAppLog } from './app-log';
import { SecretRedaction } from './secret-redaction';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TOKEN = 'ghp_R8kT2mW9qX4vB7nC1zL5';

describe("main's redaction of stored secrets", () => {
  it('keeps a stored secret out of the log, and one stored later from the next lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-redaction-'));
    made.push(dir);
    const opened = await openFileSecretStore(join(dir, 'secrets.json'));
    if (!opened.ok) throw new Error(opened.error);
    const store = opened.value.store;
    await store.set('GITHUB_TOKEN', TOKEN);
    const redaction = new SecretRedaction(store);
    await redaction.refresh();
    const log = openAppLog({ folder: join(dir, 'logs'), redact: redaction.redactText });

    log.error('ipc', new Error(`connectors.list failed: Bearer ${TOKEN} was refused`));
    await store.set('OTHER', 'sk-later-5f6g7h8j9k0l1m2n');
    const current = await redaction.current();
    log.error('ipc', new Error('the key sk-later-5f6g7h8j9k0l1m2n expired'));

    const text = readFileSync(log.files()[0]!, 'utf8');
    expect(text).toContain('Bearer [redacted:GITHUB_TOKEN] was refused');
    expect(text).toContain('the key [redacted:OTHER] expired');
    expect(text).not.toContain(TOKEN);
    expect(current(`x ${TOKEN}`)).toBe('x [redacted:GITHUB_TOKEN]');
  });
});
