import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { REPO_ROOT } from '../../run/test-support/temp-org';

const CLIENT = join(import.meta.dirname, 'test-support', 'conformance-elicitation-client.mjs');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// The official suite's scenario against `lemming call` (the CLI bundle: `npm run build:cli` after engine changes).
it(
  'the conformance scenario elicitation-sep1034-client-defaults passes: a form accepted with its defaults sends them',
  { timeout: 120_000 },
  async () => {
    const output = mkdtempSync(join(tmpdir(), 'conformance-results-'));
    folders.push(output);
    await promisify(execFile)(
      process.execPath,
      [
        join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
        'client',
        '--command',
        `${process.execPath} ${CLIENT}`,
        '--scenario',
        'elicitation-sep1034-client-defaults',
        '--output-dir',
        output,
      ],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '' } },
    ).catch((error: { stdout?: string }) => error);
    const [run] = readdirSync(output, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith('checks.json'));
    const checks = JSON.parse(readFileSync(join(output, run!), 'utf8')) as { id: string; status: string }[];
    const verdicts = checks.filter((check) => check.id.startsWith('client-elicitation'));
    expect(verdicts.map((check) => check.id).sort()).toEqual([
      'client-elicitation-sep1034-boolean-default',
      'client-elicitation-sep1034-enum-default',
      'client-elicitation-sep1034-integer-default',
      'client-elicitation-sep1034-number-default',
      'client-elicitation-sep1034-string-default',
    ]);
    expect(verdicts.filter((check) => check.status !== 'SUCCESS')).toEqual([]);
  },
);
