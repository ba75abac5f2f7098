import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { LoopbackServer } from '../../engine/models/test-support/loopback-server';
import { expectedTurn, startSweepModelServer, SWEEP_AGENTS, writeSweepOrg } from './sweep-org';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const LEMMING = join(REPO_ROOT, 'bin', 'lemming.mjs');

/** The system calls that change a file, a folder or what is on its way out of the process. */
export const WRITE_SYSCALLS = [
  'write',
  'pwrite64',
  'writev',
  'pwritev',
  'fsync',
  'fdatasync',
  'rename',
  'renameat',
  'renameat2',
  'openat',
  'unlink',
  'unlinkat',
  'mkdir',
  'mkdirat',
  'ftruncate',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
] as const;
/** An openat that opens for writing or creates. */
const WRITE_OPEN = /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/;

export type WriteSyscall = (typeof WRITE_SYSCALLS)[number];

export type FaultError = 'EIO' | 'ENOSPC';

/** One faulted run: `syscall` fails with `error` at its `nth` call in each process and thread of the run. */
export interface Fault {
  syscall: WriteSyscall;
  nth: number;
  error: FaultError;
}

/** A run of the `lemming` binary; `hung` when it was killed at the time bound. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  hung: boolean;
  ms: number;
}

export interface FaultOutcome {
  fault: Fault;
  faulted: Ran;
  /** The calls strace failed, as it printed them (paths resolved with -y). */
  injected: string[];
  /**
   * Whether a write-related call failed. strace numbers calls per thread, so a number chosen for one
   * thread's write-open may fail another thread's read-only open (of Node's own modules, say) instead.
   */
  hitAWrite: boolean;
  /** The clean runs after it: one when the faulted run finished its tick, two when it stopped in it. */
  recoveries: Ran[];
  /** What is wrong: a stack trace, a hang, a lost or doubled turn, a failed recovery; empty when all is well. */
  problems: string[];
}

export function hasStrace(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A stack trace, as Node prints one for an error nothing handled. */
export function hasStackTrace(stderr: string): boolean {
  return /^\s+at \S/m.test(stderr) || /node:internal|triggerUncaughtException|^\s*\^\s*$/m.test(stderr);
}

/**
 * The sweep's world: a loopback model, a template org that has run `ticksBefore` ticks (trusted in a config
 * folder of its own), and the folders where each case restores it, so that every case runs the same tick.
 */
export class SweepWorld {
  private constructor(
    /** How many ticks the template org has run: the faulted tick is the next one. */
    readonly ticksBefore: number,
    private readonly server: LoopbackServer,
    private readonly base: string,
    readonly configDir: string,
    private readonly template: string,
  ) {}

  /** `ticksBefore` 0 faults an org's very first tick (its timeline created), 1 a tick of an org that ran. */
  static async create(ticksBefore: 0 | 1 = 1): Promise<SweepWorld> {
    const server = await startSweepModelServer();
    const base = mkdtempSync(join(tmpdir(), 'lemming-fault-sweep-'));
    const configDir = join(base, 'config');
    const template = join(base, 'template');
    const world = new SweepWorld(ticksBefore, server, base, configDir, template);
    const org = world.orgFolder(0);
    writeSweepOrg(org, server.url);
    const trusted = await world.lemming(['trust', org, '--yes']);
    if (trusted.code !== 0) throw new Error(`could not trust the sweep org: ${trusted.stderr}`);
    if (ticksBefore > 0) {
      const first = await world.lemming(['run', org, '--ticks', String(ticksBefore)]);
      if (first.code !== 0) throw new Error(`the sweep org's first tick failed: ${first.stderr}`);
    }
    cpSync(org, template, { recursive: true });
    return world;
  }

  /** The org folder of worker `slot`; trust is kept per path, and every slot's copy is trusted once. */
  orgFolder(slot: number): string {
    return join(this.base, `org-${slot}`);
  }

  /** Restores slot `slot`'s org to the template, trusting that path if not yet trusted. */
  async restore(slot: number): Promise<string> {
    const org = this.orgFolder(slot);
    rmSync(org, { recursive: true, force: true });
    cpSync(this.template, org, { recursive: true });
    if (!existsSync(join(this.base, `trusted-${slot}`))) {
      const trusted = await this.lemming(['trust', org, '--yes']);
      if (trusted.code !== 0) throw new Error(`could not trust ${org}: ${trusted.stderr}`);
      mkdirSync(join(this.base, `trusted-${slot}`));
    }
    return org;
  }

  /** `lemming <args>`, optionally under strace, killed after `limitMs`. */
  lemming(args: string[], strace: string[] | null = null, limitMs = 60_000): Promise<Ran> {
    return new Promise((resolvePromise, reject) => {
      const started = Date.now();
      const command = strace ? 'strace' : process.execPath;
      const argv = strace ? [...strace, process.execPath, LEMMING, ...args] : [LEMMING, ...args];
      const child = spawn(command, argv, {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', LEMMING_CONFIG_DIR: this.configDir },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      let hung = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => {
        hung = true;
        // The whole group: strace and the lemming it traces.
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      }, limitMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolvePromise({ code, stdout, stderr, hung, ms: Date.now() - started });
      });
    });
  }

  /**
   * The write-related calls of one tick, from a fault-free run under `strace -f`: for each system call, the
   * call numbers (counted per process and thread, as strace's `when=` counts) that some thread makes. An
   * `openat` counts only when some thread's call of that number opens for writing or creates.
   */
  async enumerate(slot = 0): Promise<{ calls: Record<string, number[]>; reference: Ran }> {
    const org = await this.restore(slot);
    const trace = join(this.base, `enumerate-${slot}.txt`);
    const reference = await this.lemming(
      ['run', org, '--ticks', '1'],
      ['-f', '-qq', '-y', '-o', trace, '-e', `trace=${WRITE_SYSCALLS.join(',')}`],
    );
    const perThread = new Map<string, Map<string, number>>();
    const calls: Record<string, Set<number>> = {};
    for (const line of readFileSync(trace, 'utf8').split('\n')) {
      const match = /^(\d+)\s+(?:<\.\.\. )?(\w+)\(/.exec(line);
      if (!match || line.includes(' resumed>')) continue;
      const [, pid, name] = match as unknown as [string, string, string];
      if (!(WRITE_SYSCALLS as readonly string[]).includes(name)) continue;
      const counts = perThread.get(pid) ?? new Map<string, number>();
      perThread.set(pid, counts);
      const nth = (counts.get(name) ?? 0) + 1;
      counts.set(name, nth);
      if (name === 'openat' && !WRITE_OPEN.test(line)) continue;
      (calls[name] ??= new Set()).add(nth);
    }
    return {
      calls: Object.fromEntries(
        Object.entries(calls).map(([name, numbers]) => [name, [...numbers].sort((a, b) => a - b)]),
      ),
      reference,
    };
  }

  /** Runs one tick with `fault` injected, then one clean tick, and checks what the org holds after both. */
  async runCase(fault: Fault, slot = 0, limitMs = 60_000): Promise<FaultOutcome> {
    const org = await this.restore(slot);
    const trace = join(this.base, `trace-${slot}.txt`);
    const faulted = await this.lemming(
      ['run', org, '--ticks', '1'],
      [
        '-f',
        '-qq',
        '-y',
        '-o',
        trace,
        '-e',
        `trace=${fault.syscall}`,
        '-e',
        `inject=${fault.syscall}:error=${fault.error}:when=${fault.nth}`,
      ],
      limitMs,
    );
    const injected = existsSync(trace)
      ? readFileSync(trace, 'utf8')
          .split('\n')
          .filter((line) => line.includes('(INJECTED)'))
          .map((line) => line.replace(/^\d+\s+/, ''))
      : [];
    const problems: string[] = [];
    if (faulted.hung) problems.push(`the faulted run hung (killed after ${limitMs} ms)`);
    if (hasStackTrace(faulted.stderr))
      problems.push(`the faulted run printed a stack trace:\n${faulted.stderr}`);
    // Clean runs until the tick after the faulted one is done.
    const lastTick = this.ticksBefore + 2;
    const recoveries: Ran[] = [];
    while (recoveries.length < 2) {
      const recovery = await this.lemming(['run', org, '--ticks', '1'], null, limitMs);
      recoveries.push(recovery);
      if (recovery.hung) problems.push('a clean run after the fault hung');
      if (hasStackTrace(recovery.stderr))
        problems.push(`a clean run after the fault printed a stack trace:\n${recovery.stderr}`);
      if (recovery.code !== 0)
        problems.push(`a clean run after the fault exited ${recovery.code}: ${recovery.stderr.trim()}`);
      if (recovery.code !== 0 || recovery.stdout.includes(`tick ${lastTick}: `)) break;
    }
    problems.push(...checkOrg(org, lastTick));
    const hitAWrite = injected.some((line) => !line.startsWith('openat(') || WRITE_OPEN.test(line));
    return { fault, faulted, injected, hitAWrite, recoveries, problems };
  }

  async close(): Promise<void> {
    await this.server.close();
    rmSync(this.base, { recursive: true, force: true });
  }
}

interface TurnRow {
  tick: number;
  agent: string;
  status: string;
}

/**
 * What must hold after a faulted tick and a clean one, as in a fault-free run: every tick up to the last has
 * a recorded turn for every agent (none lost), the last tick's turns all completed (the org recovered), each
 * completed turn's message and memory item are there once and its file is there (or its file_write told
 * the model it failed), no turn's message or memory item is there
 * twice (none doubled), and no committed write is still owed.
 */
export function checkOrg(org: string, lastTick: number): string[] {
  const problems: string[] = [];
  const file = join(org, '.lemming', 'timeline.sqlite');
  if (!existsSync(file)) return ['the org has no timeline'];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
  if (!tables.includes('turns') || !tables.includes('pending_files')) {
    db.close();
    return [`the timeline is not a whole LeMMing timeline (tables: ${tables.join(', ') || 'none'})`];
  }
  let turns: TurnRow[];
  let owed: number;
  let failedToolWrites: Set<string>;
  try {
    turns = db.prepare('SELECT tick, agent, status FROM turns ORDER BY tick, agent').all() as TurnRow[];
    owed = db.prepare('SELECT count(*) FROM pending_files').pluck().get() as number;
    const results = db.prepare("SELECT tick, agent, json FROM events WHERE kind = 'tool_result'").all() as {
      tick: number;
      agent: string;
      json: string;
    }[];
    failedToolWrites = new Set(
      results
        .filter((row) => (JSON.parse(row.json) as { result: { success: boolean } }).result.success === false)
        .map((row) => `${row.agent}@${row.tick}`),
    );
  } finally {
    db.close();
  }
  if (owed > 0) problems.push(`${owed} committed file writes are still owed`);
  const recorded = Math.max(0, ...turns.map((turn) => turn.tick));
  if (recorded !== lastTick)
    problems.push(`the last recorded tick is ${recorded}, not ${lastTick}: a tick was lost or doubled`);
  for (const agent of SWEEP_AGENTS) {
    const own = turns.filter((turn) => turn.agent === agent);
    for (let tick = 1; tick <= lastTick; tick++) {
      const turn = own.find((row) => row.tick === tick);
      if (!turn) problems.push(`${agent}'s turn at tick ${tick} is lost: no turn was recorded`);
      else if (tick === lastTick && turn.status !== 'completed')
        problems.push(`${agent}'s turn at tick ${tick} (the clean run) is ${turn.status}`);
    }
    const completed = own.filter((turn) => turn.status === 'completed').map((turn) => turn.tick);
    const messages = outboxTexts(org, agent);
    const memory = memoryItems(org, agent);
    for (const tick of completed) {
      const expected = expectedTurn(agent, tick);
      const file = join(org, 'agents', agent, 'workspace', expected.file.path);
      // A file_write the fault failed was answered to the model as a failed tool call: an honest outcome.
      const written = existsSync(file) && readFileSync(file, 'utf8') === expected.file.content;
      if (!written && !failedToolWrites.has(`${agent}@${tick}`))
        problems.push(
          `${agent}'s file of tick ${tick} is missing or wrong, and its tool call did not say so`,
        );
      if (!messages.includes(expected.message)) problems.push(`${agent}'s message of tick ${tick} is lost`);
      if (!memory.includes(expected.memoryItem))
        problems.push(`${agent}'s memory item of tick ${tick} is lost`);
    }
    for (const [what, items] of [
      ['message', messages],
      ['memory item', memory],
    ] as const) {
      const seen = new Set<string>();
      for (const item of items) {
        if (seen.has(item)) problems.push(`${agent}'s ${what} "${item}" is there twice`);
        seen.add(item);
      }
    }
  }
  return problems;
}

function outboxTexts(org: string, agent: string): string[] {
  const folder = join(org, 'agents', agent, 'outbox');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      try {
        return String(
          (JSON.parse(readFileSync(join(folder, name), 'utf8')) as { payload: { text: string } }).payload
            .text,
        );
      } catch {
        return `unreadable outbox file ${name}`;
      }
    });
}

function memoryItems(org: string, agent: string): string[] {
  const file = join(org, 'agents', agent, 'memory', 'log.json');
  if (!existsSync(file)) return [];
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { value: string[] }).value;
  } catch {
    return ['unreadable memory file'];
  }
}

/** Every fault of the sweep: each enumerated call failed in turn with each error. */
export function sweepFaults(calls: Record<string, number[]>, errors: readonly FaultError[]): Fault[] {
  return Object.entries(calls).flatMap(([syscall, numbers]) =>
    numbers.flatMap((nth) => errors.map((error) => ({ syscall: syscall as WriteSyscall, nth, error }))),
  );
}
