import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, REPO_ROOT, tempOrgs } from '../run/test-support/temp-org';
import { cliConfigDir, runLemmingProcess, type ProcessRun } from './test-support/run-cli';
import { CONFIG_DIR_VARIABLE } from '../trust/trust-file-location';

const LEMMING = join(REPO_ROOT, 'bin', 'lemming.mjs');
const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

type Ran = ProcessRun;

const lemming = runLemmingProcess;

/** A shell pipeline, as a person types it; pipefail, so the exit code is lemming's. */
function pipeline(command: string): Promise<Ran> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('bash', ['-o', 'pipefail', '-c', command], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
  });
}

/** An org whose two agents' model answers after `delayMs`, with a message and a memory write each turn. */
function slowOrg(delayMs: number, extra: Record<string, unknown> = {}): string {
  return orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      default: [
        {
          respond: {
            outbox_entries: [{ kind: 'message', payload: { text: 'hi' } }],
            memory_updates: [{ key: 'seen', op: 'append', value: 1 }],
            notes: 'ok',
            delay_ms: delayMs,
          },
        },
      ],
    },
    'agents/alpha/resume.json': resume('alpha'),
    'agents/beta/resume.json': resume('beta'),
    ...extra,
  });
}

function timelineOf(org: string): Database.Database {
  return new Database(join(org, '.lemming', 'timeline.sqlite'));
}

/** Every file of the org with its size, mtime and content hash. */
function snapshot(dir: string, base = dir): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, snapshot(path, base));
    // SQLite's shared-memory index of the write-ahead log: every reader of a WAL database updates it.
    else if (entry.name.endsWith('.sqlite-shm')) continue;
    else {
      const info = statSync(path);
      files[path.slice(base.length + 1)] =
        `${info.size} ${info.mtimeMs} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  }
  return files;
}

describe('one writer per org', () => {
  it(
    'of two `lemming run` started together, one runs and the other exits 1 at once naming the holder; model calls equal committed turns',
    { timeout: 120_000 },
    async () => {
      const org = slowOrg(400);
      const [first, second] = await Promise.all([
        lemming(['run', org, '--ticks', '3']),
        lemming(['run', org, '--ticks', '3']),
      ]);
      const [winner, loser] = first.code === 0 ? [first, second] : [second, first];
      expect(winner.code, winner.stderr).toBe(0);
      expect(loser.code).toBe(1);
      expect(loser.stderr).toMatch(
        /This org is being run by another program: lemming run \(pid \d+ on .+, since \d{4}-\d\d-\d\dT.+\)/,
      );
      // The refused run stops long before the winner (3 ticks of 400 ms turns) is done. How soon it stops
      // is a speed, measured outside the tests (0.6 s under a load of 8 on 2 cores): with the compiled CLI,
      // `--help` starts about as fast, so racing the two here would only test the machine's scheduler.
      expect(loser.ms).toBeLessThan(winner.ms - 800);

      const db = timelineOf(org);
      try {
        const modelCalls = db.prepare("SELECT count(*) FROM events WHERE kind = 'model_call'").pluck().get();
        const committed = db.prepare("SELECT count(*) FROM turns WHERE status = 'completed'").pluck().get();
        expect(committed).toBe(6);
        expect(modelCalls).toBe(committed);
        expect(db.prepare("SELECT count(*) FROM events WHERE kind = 'tick_completed'").pluck().get()).toBe(3);
      } finally {
        db.close();
      }
    },
  );

  it(
    'after a SIGKILL of the holder, the next run starts without any cleanup and says it took over',
    { timeout: 120_000 },
    async () => {
      const org = slowOrg(300);
      const killed = await lemming(
        ['run', org, '--ticks', '50'],
        (out, kill) => out.includes('tick 1:') && kill(),
      );
      expect(killed.signal).toBe('SIGKILL');
      const next = await lemming(['run', org, '--ticks', '1']);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stdout).toMatch(/^tick 2: alpha completed, beta completed/m);
      const warnings = await lemming(['timeline', org, '--kind', 'warning', '--json']);
      const codes = (
        JSON.parse(warnings.stdout).events as { event: { code: string; message: string } }[]
      ).map((row) => row.event);
      expect(codes.find((event) => event.code === 'run_lock_taken_over')?.message).toMatch(
        /The last run of this org \(lemming run, pid \d+ on .+\) ended without releasing it/,
      );
    },
  );

  it(
    'read-only commands work while another program runs the org, and write nothing to it',
    { timeout: 120_000 },
    async () => {
      const org = slowOrg(200);
      expect((await lemming(['run', org, '--ticks', '2'])).code).toBe(0);
      let holding: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = lemming(
        ['run', org, '--ticks', '1000', '--interval', '30'],
        (out) => out.includes('tick 3:') && holding(),
      );
      await held;
      const before = snapshot(org);
      const outside = join(orgs.build({ 'readme.txt': 'elsewhere' }), 'export.jsonl');
      for (const args of [
        ['status', org],
        ['status', org, '--json'],
        ['timeline', org],
        ['inbox', org, 'alpha'],
        ['validate', org],
        ['export', org, outside],
      ]) {
        const ran = await lemming(args);
        expect(ran.code, `${args.join(' ')}: ${ran.stderr}`).toBe(0);
        expect(ran.stderr, args.join(' ')).toBe('');
      }
      const status = await lemming(['status', org]);
      expect(status.stdout).toMatch(
        /next tick: 4\nThis org is being run by another program: lemming run \(pid \d+/,
      );
      expect(snapshot(org)).toEqual(before);
      // A run started while another holds the org is refused with the holder named.
      for (const command of ['run', 'tick']) {
        const refused = await lemming([command, org]);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(
          new RegExp(
            `^lemming ${command}: This org is being run by another program: lemming run \\(pid \\d+`,
          ),
        );
      }
      const topUp = await lemming(['credits', org, 'top-up', 'alpha', '5']);
      expect(topUp.code).toBe(1);
      expect(topUp.stderr).toMatch(/being run by another program/);
      process.kill((await lemmingPid(org))!, 'SIGKILL');
      await holder;
    },
  );
});

/** The pid the holder file names. */
async function lemmingPid(org: string): Promise<number | null> {
  return (JSON.parse(readFileSync(join(org, '.lemming', 'run-holder.json'), 'utf8')) as { pid: number }).pid;
}

describe('piping into head', () => {
  it(
    '`lemming status | head -1` and `lemming timeline <org> | head -1` end without a stack trace',
    { timeout: 120_000 },
    async () => {
      const org = slowOrg(
        0,
        Object.fromEntries(
          Array.from({ length: 40 }, (_, index) => [
            `agents/extra_${index}/resume.json`,
            resume(`extra_${index}`),
          ]),
        ),
      );
      expect((await lemming(['run', org, '--ticks', '3'])).code).toBe(0);
      for (const command of [`status '${org}'`, `timeline '${org}' --limit 1000`]) {
        for (const reader of ['head -1', '(exit 0)']) {
          const ran = await pipeline(`'${process.execPath}' '${LEMMING}' ${command} | ${reader}`);
          expect(ran.stderr, `${command} | ${reader}`).toBe('');
          expect(ran.code, `${command} | ${reader}`).toBe(0);
          if (reader === 'head -1') expect(ran.stdout.split('\n').filter(Boolean)).toHaveLength(1);
        }
      }
    },
  );
});

/**
 * Whether this process may mount in a mount namespace of its own (root, or a user namespace allowed). CI
 * runs as root on Linux, where this holds, so the read-only-outbox test skipped without it runs there.
 */
function canBindReadOnly(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('unshare', ['-m', 'sh', '-c', 'mount --bind / /mnt && mount -o remount,bind,ro /mnt'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** `lemming <args>` in a mount namespace where `folder` is a read-only bind of itself. */
function lemmingWithReadOnly(folder: string, args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(
      'unshare',
      [
        '-m',
        'sh',
        '-c',
        'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"',
        'sh',
        folder,
        process.execPath,
        LEMMING,
        ...args,
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', [CONFIG_DIR_VARIABLE]: cliConfigDir() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('a fault during a run', () => {
  it.skipIf(!canBindReadOnly())(
    'a read-only outbox fails only its agent’s turns, in plain words and without a stack trace',
    { timeout: 60_000 },
    async () => {
      const org = slowOrg(0);
      mkdirSync(join(org, 'agents/beta/outbox'), { recursive: true });
      const ran = await lemmingWithReadOnly(join(org, 'agents/beta/outbox'), ['run', org, '--ticks', '2']);
      expect(ran.stderr).not.toMatch(/^\s+at /m);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/^tick 1: alpha completed, beta failed$/m);
      expect(ran.stdout).toMatch(/^tick 2: alpha completed, beta failed$/m);
      const errors = await lemming(['timeline', org, '--kind', 'error', '--json']);
      const messages = (JSON.parse(errors.stdout).events as { event: { message: string } }[]).map(
        (row) => row.event.message,
      );
      expect(messages).toContainEqual(
        expect.stringMatching(
          /^could not write to agents\/beta\/outbox\/\S+\.json: the folder is read-only$/,
        ),
      );
    },
  );

  it(
    'a folder that cannot be written fails only its agent’s turn, in plain words and without a stack trace',
    { timeout: 60_000 },
    async () => {
      const org = slowOrg(0);
      rmSync(join(org, 'agents/beta/logs'), { recursive: true, force: true });
      writeFileSync(join(org, 'agents/beta/logs'), 'not a folder');
      const ran = await lemming(['run', org, '--ticks', '2']);
      expect(ran.stderr).not.toMatch(/^\s+at /m);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/^tick 1: alpha completed, beta failed$/m);
      expect(ran.stdout).toMatch(/^tick 2: alpha completed, beta failed$/m);
      const errors = await lemming(['timeline', org, '--kind', 'error', '--json']);
      const messages = (JSON.parse(errors.stdout).events as { event: { message: string } }[]).map(
        (row) => row.event.message,
      );
      expect(messages).toContain(
        'could not write to agents/beta/logs/activity.log: a file is in the way of a folder',
      );
    },
  );

  it(
    'an error nothing handled ends the run in one plain line, with the run lock released',
    { timeout: 60_000 },
    async () => {
      const org = slowOrg(0);
      const ran = await lemming(['run', org, '--ticks', '3'], undefined, {
        LEMMING_REJECT_AT: 'tick:turns-committed#2',
      });
      expect(ran.code).toBe(1);
      expect(ran.stderr).toBe(
        'lemming run: stopped by an unexpected error (a fault injected at tick:turns-committed); the org is left as its last commit.\n',
      );
      const next = await lemming(['run', org, '--ticks', '1']);
      expect(next.code, next.stderr).toBe(0);
      const warnings = await lemming(['timeline', org, '--kind', 'warning', '--json']);
      const codes = (JSON.parse(warnings.stdout).events as { event: { code: string } }[]).map(
        (row) => row.event.code,
      );
      expect(codes).not.toContain('run_lock_taken_over');
    },
  );
});
