import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMIT_CEILING } from './adaptive-limit';
import { SERVER_LIMITS_FILE, ServerLimits } from './server-limits';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function orgWithLearned(content: string | null): string {
  const org = mkdtempSync(join(tmpdir(), 'server-limits-'));
  folders.push(org);
  if (content !== null) {
    mkdirSync(join(org, '.lemming'));
    writeFileSync(join(org, SERVER_LIMITS_FILE), content);
  }
  return org;
}

async function startOf(org: string): Promise<number> {
  const limits = new ServerLimits(org);
  await limits.load();
  limits.gate('ollama http://127.0.0.1:11434/', 4, false);
  limits.sent('ollama http://127.0.0.1:11434/');
  return limits.limits()[0]!.limit;
}

describe('what was learned of model servers, across runs', () => {
  it('starts a server from what the last run learned of it', async () => {
    const learned = { servers: { 'ollama http://127.0.0.1:11434/': { limit: 9, baseline_ms: 800 } } };
    expect(await startOf(orgWithLearned(JSON.stringify(learned)))).toBe(9);
  });

  it('starts from the default when the file is missing, broken, or holds a limit out of range', async () => {
    expect(await startOf(orgWithLearned(null))).toBe(4);
    expect(await startOf(orgWithLearned('{"servers": '))).toBe(4);
    const tooHigh = {
      servers: { 'ollama http://127.0.0.1:11434/': { limit: LIMIT_CEILING + 1, baseline_ms: 800 } },
    };
    expect(await startOf(orgWithLearned(JSON.stringify(tooHigh)))).toBe(4);
  });

  it('writes nothing for an org whose models are no servers (programs, scripted) or set by hand', async () => {
    const org = orgWithLearned(null);
    const limits = new ServerLimits(org);
    await limits.load();
    limits.gate('scripted', 4, true);
    await limits.save();
    expect(existsSync(join(org, SERVER_LIMITS_FILE))).toBe(false);
  });
});
