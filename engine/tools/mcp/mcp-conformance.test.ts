import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../run/test-support/temp-org';

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) runs each of its client
 * scenarios against the engine: its scenario server (and authorization servers) on loopback, and as the
 * client `test-support/conformance-client.mjs`, which makes an org whose connector is that server and
 * uses it through the real `lemming` command (cards, `--sign-in` with BROWSER following the sign-in
 * redirect, `call`). Every client scenario the suite lists must pass: no failed check, no warning.
 */
const SUITE = join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT = join(REPO_ROOT, 'engine', 'tools', 'mcp', 'test-support', 'conformance-client.mjs');

/** Timing scenarios run alone, so a busy machine's other scenarios do not make them late. */
const ALONE = new Set(['sse-retry']);
const AT_ONCE = 4;

function clientScenarios(): string[] {
  const listed = execFileSync(process.execPath, [SUITE, 'list'], { encoding: 'utf8' });
  const client = listed.slice(listed.indexOf('Client scenarios'));
  return [...client.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!);
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description: string;
  errorMessage?: string;
}

interface Outcome {
  exitCode: number | null;
  checks: Check[];
  output: string;
}

const scenarios = clientScenarios();
const results = mkdtempSync(join(tmpdir(), 'lemming-conformance-results-'));
const outcomes = new Map<string, Outcome>();

/** The checks the suite saved for one run: the one checks.json under its own output folder. */
function checksIn(folder: string): Check[] {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) {
      const found = checksIn(path);
      if (found.length > 0) return found;
    } else if (name === 'checks.json') return JSON.parse(readFileSync(path, 'utf8')) as Check[];
  }
  return [];
}

function run(scenario: string): Promise<void> {
  const output = join(results, String(scenarios.indexOf(scenario)));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        SUITE,
        'client',
        '--command',
        `"${process.execPath}" "${CLIENT}"`,
        '--scenario',
        scenario,
        '--timeout',
        '120000',
        '-o',
        output,
      ],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '' } },
      (error, stdout, stderr) => {
        try {
          const exitCode = error ? (typeof error.code === 'number' ? error.code : null) : 0;
          outcomes.set(scenario, {
            exitCode,
            checks: checksIn(output),
            output: `${stdout}${stderr}`.slice(-8000),
          });
        } finally {
          resolve();
        }
      },
    );
  });
}

beforeAll(async () => {
  for (const scenario of scenarios.filter((name) => ALONE.has(name))) await run(scenario);
  const queue = scenarios.filter((name) => !ALONE.has(name));
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) await run(scenario);
    }),
  );
}, 900_000);

afterAll(() => rmSync(results, { recursive: true, force: true }));

/** What went wrong in a scenario, to read in the test's failure. */
function problems(outcome: Outcome): string[] {
  return outcome.checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map(
      (check) =>
        `${check.status} ${check.id}: ${check.description}${check.errorMessage ? ` (${check.errorMessage})` : ''}`,
    );
}

describe('the official MCP conformance suite, every client scenario against the engine', () => {
  it('lists the scenarios the issue names', () => {
    expect(scenarios).toEqual(
      expect.arrayContaining([
        'initialize',
        'tools_call',
        'elicitation-sep1034-client-defaults',
        'sse-retry',
      ]),
    );
    expect(scenarios.filter((name) => name.startsWith('auth/')).length).toBeGreaterThanOrEqual(21);
  });

  it.each(scenarios)('%s passes', (scenario) => {
    const outcome = outcomes.get(scenario)!;
    expect(problems(outcome), outcome.output).toEqual([]);
    expect(
      outcome.checks.some((check) => check.status === 'SUCCESS'),
      outcome.output,
    ).toBe(true);
    expect(outcome.exitCode, outcome.output).toBe(0);
  });
});
