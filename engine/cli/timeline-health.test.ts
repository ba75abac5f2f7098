import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const lemming = (...argv: string[]) => runCli(argv);

const ORG_FILES = {
  'lemming/config/models.json': {
    scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
  },
  'script.json': {
    default: [{ respond: { outbox_entries: [{ kind: 'message', payload: { text: 'hi' } }], notes: 'ok' } }],
  },
  'agents/w1/resume.json': resume('w1'),
};

/** An org that ran three ticks, its timeline at `.lemming/timeline.sqlite`. */
async function orgThatRan(): Promise<{ org: string; timeline: string }> {
  const org = orgs.build(ORG_FILES);
  const run = await lemming('run', org, '--ticks', '3');
  expect(run.code, run.stderr).toBe(0);
  return { org, timeline: join(org, '.lemming', 'timeline.sqlite') };
}

/** Every file under `.lemming` and its bytes, to show nothing was deleted or replaced. */
function snapshot(org: string): Record<string, string> {
  const folder = join(org, '.lemming');
  return Object.fromEntries(
    readdirSync(folder)
      .filter(
        (name) => statSync(join(folder, name)).isFile() && name !== 'run.lock' && name !== 'run.holder.json',
      )
      .map((name) => [name, readFileSync(join(folder, name)).toString('base64')]),
  );
}

async function expectRefusedAndUntouched(org: string, said: RegExp, fix: RegExp): Promise<void> {
  const before = snapshot(org);
  const status = await lemming('status', org);
  expect(`${status.stdout}${status.stderr}`).toMatch(said);
  expect(`${status.stdout}${status.stderr}`).not.toMatch(/next run recovers it/);
  const run = await lemming('run', org, '--ticks', '1');
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(said);
  expect(run.stderr).toMatch(fix);
  expect(run.stderr).not.toMatch(/SQLITE_|malformed|\n\s+at /);
  expect(snapshot(org)).toEqual(before);
}

describe('a timeline that is damaged, newer, behind tick.json or missing', () => {
  it(
    'a truncated timeline is reported as damaged, with what to do; nothing is replaced',
    { timeout: 60_000 },
    async () => {
      const { org, timeline } = await orgThatRan();
      truncateSync(timeline, Math.floor(statSync(timeline).size / 2));
      await expectRefusedAndUntouched(org, /history .* is damaged/, /keep a copy/i);
    },
  );

  it('a timeline from a newer version asks for the newer app', { timeout: 60_000 }, async () => {
    const { org, timeline } = await orgThatRan();
    const db = new Database(timeline);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (9999, 'future', 'x', 'now')",
    ).run();
    db.close();
    await expectRefusedAndUntouched(org, /newer version of LeMMing Desktop/, /update LeMMing Desktop/i);
  });

  it(
    'a lost -wal (tick.json ahead of the history) is named, with what to do, by status and run',
    { timeout: 60_000 },
    async () => {
      const { org, timeline } = await orgThatRan();
      // The timeline as it was after tick 1, with tick.json at tick 4: what losing the -wal leaves.
      const db = new Database(timeline);
      db.prepare('DELETE FROM events WHERE tick > 1').run();
      db.close();
      const said =
        /history \(\.lemming\/timeline\.sqlite\) ends at tick 1.*tick 4 is next: ticks 2 to 3 are not in the history/s;
      const status = await lemming('status', org);
      expect(status.stderr).toMatch(said);
      expect(status.stderr).toMatch(/keep a copy/i);
      // LeMMing itself running ticks 2 and 3 leaves the same, so the run goes on, saying so first.
      const run = await lemming('run', org, '--ticks', '1');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(said);
      expect(run.stdout).toMatch(/^tick 4: w1 completed$/m);
      const completed = await lemming('timeline', org, '--kind', 'tick_completed', '--json', '--asc');
      expect(
        (JSON.parse(completed.stdout) as { events: { event: { tick: number } }[] }).events.map(
          (row) => row.event.tick,
        ),
      ).toEqual([1, 4]);
    },
  );
  it('a deleted timeline on an org that ran is not silently started anew', { timeout: 60_000 }, async () => {
    const { org, timeline } = await orgThatRan();
    rmSync(timeline);
    for (const extra of ['-wal', '-shm'])
      if (existsSync(timeline + extra)) renameSync(timeline + extra, `${timeline}${extra}.gone`);
    await expectRefusedAndUntouched(org, /history .* is missing/, /restore it from a backup/i);
    expect(existsSync(timeline)).toBe(false);
  });

  it(
    'an empty timeline, as a first run that failed while creating it leaves, is no history: the next run starts it',
    { timeout: 60_000 },
    async () => {
      const org = orgs.build(ORG_FILES);
      // What a first run leaves when it cannot make the -shm file: a WAL-mode SQLite file with no tables.
      mkdirSync(join(org, '.lemming'));
      const empty = new Database(join(org, '.lemming', 'timeline.sqlite'));
      empty.pragma('journal_mode = WAL');
      empty.close();
      const status = await lemming('status', org);
      expect(`${status.stdout}${status.stderr}`).not.toMatch(/damaged|cannot be read/);
      const run = await lemming('run', org, '--ticks', '1');
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^tick 1: w1 completed$/m);
    },
  );

  it(
    'an empty timeline on an org whose tick.json says ticks ran is refused as a missing one',
    { timeout: 60_000 },
    async () => {
      const { org, timeline } = await orgThatRan();
      for (const extra of ['', '-wal', '-shm']) rmSync(timeline + extra, { force: true });
      const empty = new Database(timeline);
      empty.pragma('journal_mode = WAL');
      empty.close();
      const before = readFileSync(timeline);
      const run = await lemming('run', org, '--ticks', '1');
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /history .* has nothing in it, but lemming\/config\/tick.json says 3 ticks ran/,
      );
      expect(run.stderr).toMatch(/restore it from a backup/i);
      const status = await lemming('status', org);
      expect(`${status.stdout}${status.stderr}`).toMatch(/history .* has nothing in it/);
      expect(readFileSync(timeline)).toEqual(before);
    },
  );
});
