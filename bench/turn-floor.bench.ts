// The engine's whole cost per agent turn against the floor measured in the same run: the floor is one
// SQLite transaction per turn writing exactly the rows the engine's turn wrote (captured from the
// engine's own statements, replayed through prepared statements into a copy of the same database) plus
// the turn's file writes (outbox, memory, log), written as a turn writes them. Interleaved repetitions.
// Sizes: LEMMING_BENCH_FLOOR_AGENTS, LEMMING_BENCH_FLOOR_TICKS (per repetition), LEMMING_BENCH_FLOOR_REPS.
import { appendFileSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Database from 'better-sqlite3';
import { writeFileAtomicUnflushed } from '../engine/files/atomic-write';
import type { FileWrite } from '../engine/files/file-write';
import { OrgEngine } from '../engine/run/org-engine';
import { applyConnectionPragmas, openSqlite } from '../engine/timeline/sqlite';
import type { BenchRow, BenchSection } from './bench-section';
import { buildOrg } from './engine.bench';
import { trustAsIs } from '../engine/trust/test-support/trust-as-is';

const AGENTS = Number(process.env.LEMMING_BENCH_FLOOR_AGENTS ?? 100);
const TICKS = Number(process.env.LEMMING_BENCH_FLOOR_TICKS ?? 5);
const REPS = Number(process.env.LEMMING_BENCH_FLOOR_REPS ?? 7);
/** Turns before anything is captured or measured, so V8 has optimized the turn's code. */
const WARM_UP_TURNS = 300;
const TARGET_RATIO = 2;

type StatementMethod = 'run' | 'get' | 'all';
interface CapturedStatement {
  sql: string;
  method: StatementMethod;
  args: unknown[];
}
interface CapturedTurn {
  statements: CapturedStatement[];
  files: FileWrite[];
}
interface Cost {
  wallMs: number;
  cpuMs: number;
}

const SCENARIOS = [
  {
    name: 'one message and one memory write a turn',
    respond: {
      outbox_entries: [{ kind: 'status', payload: { text: 'working' } }],
      memory_updates: [{ key: 'seen', op: 'set', value: 1 }],
      notes: 'sent',
    },
  },
  { name: 'notes only', respond: { notes: 'checked in' } },
];

/** Statements of the engine's transaction structure, not rows: the floor's own transaction replaces them. */
const TRANSACTION_CONTROL = /^\s*(savepoint|release|begin|commit|rollback)\b/i;
/** The search index row of one event (rowid = the event's seq), written in batches when the tick closes. */
const SEARCH_ROW = /^\s*insert into events_search\b/i;

/**
 * Runs `work` while recording, per committed turn, every writing statement the engine runs inside the
 * turn's rows (`insertTurnRows`), the search index rows of the turn's events (written when the tick
 * closes) and the turn's file writes. Patches the prototypes only while it runs.
 */
async function captureTurns(engine: OrgEngine, work: () => Promise<unknown>): Promise<CapturedTurn[]> {
  const statementProto = Object.getPrototypeOf(engine.timeline.db.prepare('SELECT 1')) as Record<
    StatementMethod,
    (this: Database.Statement, ...args: unknown[]) => unknown
  >;
  const engineProto = OrgEngine.prototype as unknown as {
    insertTurnRows(this: OrgEngine, turn: { files: FileWrite[] }): unknown;
  };
  const originalMethods = { run: statementProto.run, get: statementProto.get, all: statementProto.all };
  const originalInsert = engineProto.insertTurnRows;
  const turns: CapturedTurn[] = [];
  const turnOfSeq = new Map<number, CapturedTurn>();
  let current: CapturedTurn | null = null;
  for (const method of ['run', 'get', 'all'] as const) {
    statementProto[method] = function (this: Database.Statement, ...args: unknown[]) {
      const owner = current ?? (SEARCH_ROW.test(this.source) ? turnOfSeq.get(Number(args[0])) : undefined);
      if (
        owner &&
        !TRANSACTION_CONTROL.test(this.source) &&
        (method === 'run' || !/^\s*(select|with)\b/i.test(this.source))
      )
        owner.statements.push({ sql: this.source, method, args });
      return originalMethods[method].apply(this, args);
    };
  }
  engineProto.insertTurnRows = function (turn) {
    const captured: CapturedTurn = { statements: [], files: turn.files.map((file) => ({ ...file })) };
    current = captured;
    try {
      const rows = originalInsert.call(this, turn) as { seqs: number[] };
      for (const seq of rows.seqs) turnOfSeq.set(seq, captured);
      return rows;
    } finally {
      turns.push(captured);
      current = null;
    }
  };
  try {
    await work();
  } finally {
    Object.assign(statementProto, originalMethods);
    engineProto.insertTurnRows = originalInsert;
  }
  return turns;
}

/** The floor: each captured turn as one transaction of its statements, then its files; into copies made at capture. */
function replayFloor(baseDb: string, baseOrg: string, scratch: string, turns: readonly CapturedTurn[]): Cost {
  const dbFile = join(scratch, 'floor.sqlite');
  const org = join(scratch, 'floor-org');
  rmSync(org, { recursive: true, force: true });
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  copyFileSync(baseDb, dbFile);
  cpSync(baseOrg, org, { recursive: true });
  const db = openSqlite(dbFile);
  try {
    applyConnectionPragmas(db, { readonly: false });
    const prepared = new Map<string, Database.Statement>();
    for (const turn of turns)
      for (const { sql } of turn.statements) if (!prepared.has(sql)) prepared.set(sql, db.prepare(sql));
    for (const turn of turns)
      for (const file of turn.files) mkdirSync(dirname(join(org, file.path)), { recursive: true });
    const commit = db.transaction((statements: CapturedStatement[]) => {
      for (const { sql, method, args } of statements) prepared.get(sql)![method](...args);
    });
    return measure(() => {
      for (const turn of turns) {
        commit(turn.statements);
        for (const file of turn.files) {
          const path = join(org, file.path);
          if (file.mode === 'write') writeFileAtomicUnflushed(path, file.content);
          else if (file.mode === 'append') appendFileSync(path, file.content);
          else rmSync(path, { force: true });
        }
      }
    });
  } finally {
    db.close();
  }
}

function measure(work: () => void): Cost {
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  work();
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs: performance.now() - began, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function measureAsync(work: () => Promise<void>): Promise<Cost> {
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  await work();
  const cpu = process.cpuUsage(cpuBefore);
  return { wallMs: performance.now() - began, cpuMs: (cpu.user + cpu.system) / 1000 };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

async function compare(scenario: (typeof SCENARIOS)[number]): Promise<BenchRow[]> {
  const org = buildOrg(AGENTS, scenario);
  const scratch = mkdtempSync(join(tmpdir(), 'lemming-floor-bench-'));
  try {
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
    });
    try {
      const runTicks = async (ticks: number) => {
        for (let tick = 0; tick < ticks; tick += 1) await engine.runTick();
      };
      await runTicks(Math.max(2, Math.ceil(WARM_UP_TURNS / AGENTS)));
      // The state the captured ticks start from: the floor replays them into copies of it.
      const baseDb = join(scratch, 'base.sqlite');
      engine.timeline.db.exec(`VACUUM INTO '${baseDb.replaceAll("'", "''")}'`);
      const baseOrg = join(scratch, 'base-org');
      cpSync(org, baseOrg, { recursive: true, filter: (source) => !source.includes('.lemming') });
      const turns = await captureTurns(engine, () => runTicks(TICKS));
      if (turns.length !== AGENTS * TICKS)
        throw new Error(`captured ${turns.length} turns, expected ${AGENTS * TICKS}`);
      const withoutSearch = turns.map((turn) => ({
        ...turn,
        statements: turn.statements.filter(({ sql }) => !SEARCH_ROW.test(sql)),
      }));
      const engineCosts: Cost[] = [];
      const floorCosts: Cost[] = [];
      const floorWithoutSearchCosts: Cost[] = [];
      for (let rep = 0; rep < REPS; rep += 1) {
        engineCosts.push(await measureAsync(() => runTicks(TICKS)));
        floorCosts.push(replayFloor(baseDb, baseOrg, scratch, turns));
        floorWithoutSearchCosts.push(replayFloor(baseDb, baseOrg, scratch, withoutSearch));
      }
      const perTurn = (cost: Cost) => ({
        wallMs: cost.wallMs / turns.length,
        cpuMs: cost.cpuMs / turns.length,
      });
      const ours = engineCosts.map(perTurn);
      const floor = floorCosts.map(perTurn);
      const cpuRatios = ours.map((cost, index) => cost.cpuMs / floor[index]!.cpuMs);
      const wallRatios = ours.map((cost, index) => cost.wallMs / floor[index]!.wallMs);
      const withoutSearchRatios = ours.map(
        (cost, index) => cost.cpuMs / perTurn(floorWithoutSearchCosts[index]!).cpuMs,
      );
      const statementsPerTurn = turns.reduce((sum, turn) => sum + turn.statements.length, 0) / turns.length;
      const filesPerTurn = turns.reduce((sum, turn) => sum + turn.files.length, 0) / turns.length;
      return [
        {
          metric: `${scenario.name}, ${AGENTS} agents: the engine's whole cost per turn (median wall / CPU)`,
          value: `${median(ours.map((cost) => cost.wallMs)).toFixed(3)} ms / ${median(ours.map((cost) => cost.cpuMs)).toFixed(3)} ms`,
        },
        {
          metric: `same, the floor per turn (${statementsPerTurn.toFixed(1)} statements in one transaction, ${filesPerTurn.toFixed(1)} file writes)`,
          value: `${median(floor.map((cost) => cost.wallMs)).toFixed(3)} ms / ${median(floor.map((cost) => cost.cpuMs)).toFixed(3)} ms`,
        },
        {
          metric: `same, engine ÷ floor, CPU (median of ${REPS} interleaved repetitions, spread)`,
          value: `${median(cpuRatios).toFixed(2)}× (${spread(cpuRatios)})`,
          target: `≤ ${TARGET_RATIO}×`,
          met: median(cpuRatios) <= TARGET_RATIO,
        },
        {
          metric: 'same, engine ÷ floor, CPU, the floor without the search index rows',
          value: `${median(withoutSearchRatios).toFixed(2)}× (${spread(withoutSearchRatios)})`,
        },
        {
          metric: 'same, engine ÷ floor, wall',
          value: `${median(wallRatios).toFixed(2)}× (${spread(wallRatios)})`,
          target: `≤ ${TARGET_RATIO}×`,
          met: median(wallRatios) <= TARGET_RATIO,
        },
      ];
    } finally {
      engine.close();
    }
  } finally {
    rmSync(dirname(org), { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

export default async function turnFloorBench(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  for (const scenario of SCENARIOS) rows.push(...(await compare(scenario)));
  return {
    title: 'Engine overhead per turn against the floor (scripted provider)',
    rows,
    notes: [
      `Each repetition runs ${TICKS} ticks of ${AGENTS} agents (every agent fires every tick) and then replays the floor of the same ${AGENTS * TICKS} turns; ${REPS} repetitions alternate, after ${WARM_UP_TURNS} warm-up turns. ` +
        "The engine's cost is the whole tick (discovery, inbox, prompt, parsing, commits, search indexing, the LeMMing files, credits.json and tick.json) divided by the turns; the scripted model answers at once.",
      "The floor's rows are captured from the engine's own statements in its turn commit (timeline events, message, ledger posting, read cursor, the turn's record and its file journal) and the search index rows of the turn's events (the engine writes those in one batch when the tick closes; a row shows the ratio without them) " +
        'and replayed with prepared statements, one transaction per turn, into a copy of the database taken before the captured ticks; its files (outbox entry, memory key, log lines) are written as a turn writes them (atomic write without flush, appends).',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await turnFloorBench(), null, 2));
}
