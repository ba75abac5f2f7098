import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, resume, tempOrgs } from './test-support/temp-org';

const CHILD = join(REPO_ROOT, 'engine', 'run', 'test-support', 'crash-child.ts');
const TRIALS = 20;
const orgs = tempOrgs();
afterAll(() => orgs.cleanup());

/** A seeded PRNG, so a failing trial can be replayed. */
function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the child; kills it with SIGKILL `killAfterMs` after its first commit (so every kill lands in the
 * middle of a run, however fast the machine), or lets it finish. Returns the seqs it reported committed.
 */
function runChild(
  org: string,
  ticks: number,
  killAfterMs: number | null,
): Promise<{ committed: number[]; finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, org, String(ticks)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killAfterMs !== null && timer === null && stdout.includes('COMMITTED '))
        timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code !== 0 && signal !== 'SIGKILL') return reject(new Error(`child failed (${code}): ${stderr}`));
      const lines = stdout.split('\n');
      resolve({
        committed: lines
          .filter((line) => line.startsWith('COMMITTED '))
          .map((line) => Number(line.slice('COMMITTED '.length))),
        finished: lines.includes('DONE'),
      });
    });
  });
}

describe('crash safety', () => {
  it(
    `loses no committed work across ${TRIALS} SIGKILLs at random moments, never commits a turn twice, and leaves tick.json and credits.json right`,
    { timeout: 240_000 },
    async () => {
      const random = mulberry32(20261121);
      const script = {
        default: [
          {
            respond: {
              outbox_entries: [{ kind: 'message', payload: { text: 'working', blob: 'x'.repeat(2000) } }],
              memory_updates: [{ key: 'log', op: 'append', value: 'turn' }],
              notes: 'did a turn',
              delay_ms: 15,
            },
          },
        ],
      };
      const org = orgs.build({
        'lemming/config/models.json': {
          scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
        },
        // Every committed message keeps its file for this test: no tick is old enough for LeMMing's retention.
        'lemming/config/org_config.json': { base_turn_seconds: 1, max_outbox_age_ticks: 1_000_000 },
        'script.json': script,
        'agents/alpha/resume.json': resume('alpha'),
        'agents/beta/resume.json': resume('beta', { schedule: { run_every_n_ticks: 2, phase_offset: 1 } }),
        'agents/gamma/resume.json': resume('gamma'),
        'agents/delta/resume.json': resume('delta', { schedule: { run_every_n_ticks: 3, phase_offset: 0 } }),
      });

      const committed = new Set<number>();
      let kills = 0;
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const run = await runChild(org, 10_000, Math.floor(random() * 400));
        for (const seq of run.committed) committed.add(seq);
        if (!run.finished) kills += 1;
        assertNoCommittedEventLost(org, committed);
      }
      expect(kills).toBe(TRIALS);

      const final = await runChild(org, 2, null);
      expect(final.finished).toBe(true);
      for (const seq of final.committed) committed.add(seq);
      assertNoCommittedEventLost(org, committed);

      const db = openAfterCrash(org);
      try {
        expect(db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
        const completions = db
          .prepare(
            "SELECT json_extract(json, '$.turn') AS turn, count(*) AS n FROM events WHERE kind = 'turn_completed' GROUP BY turn",
          )
          .all() as { turn: string; n: number }[];
        expect(completions.filter((row) => row.n !== 1)).toEqual([]);
        const turns = db.prepare('SELECT turn FROM turns').pluck().all() as string[];
        expect(new Set(completions.map((row) => row.turn))).toEqual(new Set(turns));
        // Every tick up to the last one ran each firing agent exactly once.
        const lastTick = db.prepare('SELECT max(tick) FROM turns').pluck().get() as number;
        expect(lastTick).toBeGreaterThanOrEqual(2);
        const alphaTicks = db
          .prepare("SELECT tick FROM turns WHERE agent = 'alpha' ORDER BY tick")
          .pluck()
          .all();
        expect(alphaTicks).toEqual(Array.from({ length: lastTick }, (_, index) => index + 1));

        // No truncated file, and every committed message is on disk exactly as recorded.
        for (const { file, json } of db.prepare('SELECT file, json FROM messages').all() as {
          file: string;
          json: string;
        }[]) {
          expect(readFileSync(join(org, file), 'utf8')).toBe(json);
        }
        expect(db.prepare('SELECT count(*) FROM pending_files').pluck().get()).toBe(0);

        // Each tick closed exactly once; tick.json names the one after the last; credits.json equals the ledger.
        const closings = db
          .prepare(
            "SELECT tick, count(*) AS n FROM events WHERE kind = 'tick_completed' GROUP BY tick ORDER BY tick",
          )
          .all() as { tick: number; n: number }[];
        expect(closings).toEqual(Array.from({ length: lastTick }, (_, index) => ({ tick: index + 1, n: 1 })));
        expect(JSON.parse(readFileSync(join(org, 'lemming/config/tick.json'), 'utf8'))).toEqual({
          current_tick: lastTick + 1,
        });
        const credits = JSON.parse(readFileSync(join(org, 'lemming/config/credits.json'), 'utf8')) as Record<
          string,
          { credits_left: number }
        >;
        const balances = db
          .prepare(
            'SELECT agent, balance_micro FROM credit_ledger WHERE id IN (SELECT max(id) FROM credit_ledger GROUP BY agent)',
          )
          .all() as { agent: string; balance_micro: number }[];
        expect(balances).toHaveLength(4);
        for (const { agent, balance_micro } of balances)
          expect(credits[agent]?.credits_left, agent).toBe(balance_micro / 1_000_000);
        // Every kill after the first left the run lock to be taken over, and each later start said so.
        expect(
          db
            .prepare(
              "SELECT count(*) FROM events WHERE kind = 'warning' AND json_extract(json, '$.code') = 'run_lock_taken_over'",
            )
            .pluck()
            .get(),
        ).toBe(TRIALS);
      } finally {
        db.close();
      }
      for (const agent of ['alpha', 'beta', 'gamma', 'delta']) {
        for (const dir of ['outbox', 'memory']) {
          for (const name of listOrEmpty(join(org, 'agents', agent, dir))) {
            expect(name, 'a half-written temp file was left behind').not.toMatch(/\.tmp$/);
            // The spare is scratch space for the next write of that file (writeFileAtomicUnflushed); nothing reads it.
            if (name.endsWith('.spare')) continue;
            expect(
              () => JSON.parse(readFileSync(join(org, 'agents', agent, dir, name), 'utf8')),
              `${agent}/${dir}/${name}`,
            ).not.toThrow();
          }
        }
      }
      const memory = JSON.parse(readFileSync(join(org, 'agents', 'alpha', 'memory', 'log.json'), 'utf8'));
      const db2 = openAfterCrash(org);
      const alphaTurns = db2
        .prepare("SELECT count(*) FROM turns WHERE agent = 'alpha' AND status = 'completed'")
        .pluck()
        .get();
      db2.close();
      expect(memory.value).toHaveLength(alphaTurns as number);
    },
  );
});

/**
 * Opens the timeline as the next engine start would: a killed writer leaves its write-ahead log, and
 * only a connection that may write can recover it (a read-only one is refused until then).
 */
function openAfterCrash(org: string): Database.Database {
  return new Database(join(org, '.lemming', 'timeline.sqlite'), { fileMustExist: true });
}

function assertNoCommittedEventLost(org: string, committed: Set<number>): void {
  if (committed.size === 0) return;
  const db = openAfterCrash(org);
  try {
    const exists = db.prepare('SELECT 1 FROM events WHERE seq = ?').pluck();
    const lost = [...committed].filter((seq) => exists.get(seq) === undefined);
    expect(lost).toEqual([]);
  } finally {
    db.close();
  }
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
