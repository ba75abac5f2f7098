// The engine's own cost per agent turn with the scripted provider, at 10, 100 and 1000 agents.
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OrgEngine } from '../engine/run/org-engine';
import type { BenchSection } from './bench-section';
import { trustAsIs } from '../engine/trust/test-support/trust-as-is';

const SIZES = [10, 100, 1000];
/** Turns run before measuring, so V8 has optimized the turn's code (a 10-agent org needs 20 ticks for that). */
const WARM_UP_TURNS = 200;
/** Turns measured at least, over at least MIN_TICKS ticks, so a small org's figure is not three ticks' noise. */
const MEASURED_TURNS = 600;
const MIN_TICKS = 3;
const TARGET_MS = 1;

interface Scenario {
  name: string;
  /** What each agent answers every turn. */
  respond: Record<string, unknown>;
  /** Whether the ≤ 1 ms target is held to this scenario: the engine's own overhead, not the agent's work. */
  hasTarget: boolean;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'engine overhead (the model answers with notes only)',
    respond: { notes: 'checked in' },
    hasTarget: true,
  },
  {
    name: "with the agent's work: one message and one memory write",
    respond: {
      outbox_entries: [{ kind: 'status', payload: { text: 'working' } }],
      memory_updates: [{ key: 'seen', op: 'append', value: 1 }],
      notes: 'sent',
    },
    hasTarget: false,
  },
];

export function buildOrg(agentCount: number, scenario: Pick<Scenario, 'respond'>): string {
  const org = join(mkdtempSync(join(tmpdir(), 'lemming-engine-bench-')), 'org');
  const write = (path: string, value: unknown) => {
    mkdirSync(dirname(join(org, path)), { recursive: true });
    writeFileSync(join(org, path), JSON.stringify(value, null, 2));
  };
  write('lemming/config/models.json', {
    scripted: { provider: 'scripted', model_name: 'bench', provider_config: { script: 'script.json' } },
  });
  write('script.json', { default: [{ respond: scenario.respond }] });
  for (let index = 0; index < agentCount; index += 1) {
    const name = `agent_${String(index).padStart(4, '0')}`;
    write(`agents/${name}/resume.json`, {
      name,
      title: 'Bench agent',
      instructions: 'Work.',
      model: { key: 'scripted' },
      // Each reads two neighbours, so inboxes are not empty.
      permissions: {
        read_outboxes: [
          `agent_${String((index + 1) % agentCount).padStart(4, '0')}`,
          `agent_${String((index + 7) % agentCount).padStart(4, '0')}`,
        ],
        tools: [],
      },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    });
  }
  return org;
}

async function measure(
  agentCount: number,
  scenario: Scenario,
): Promise<{ wallMs: number; cpuMs: number; turns: number }> {
  const org = buildOrg(agentCount, scenario);
  try {
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
    });
    try {
      // Warm-up: seeds balances, prepares statements, reads the script, lets V8 optimize the turn.
      for (let tick = 0; tick < Math.ceil(WARM_UP_TURNS / agentCount); tick += 1) await engine.runTick();
      const ticks = Math.max(MIN_TICKS, Math.ceil(MEASURED_TURNS / agentCount));
      const began = performance.now();
      const cpuBefore = process.cpuUsage();
      for (let tick = 0; tick < ticks; tick += 1) await engine.runTick();
      const cpu = process.cpuUsage(cpuBefore);
      return {
        wallMs: performance.now() - began,
        cpuMs: (cpu.user + cpu.system) / 1000,
        turns: agentCount * ticks,
      };
    } finally {
      engine.close();
    }
  } finally {
    rmSync(dirname(org), { recursive: true, force: true });
  }
}

export default async function engineBench(): Promise<BenchSection> {
  const rows: BenchSection['rows'] = [];
  for (const scenario of SCENARIOS) {
    for (const size of SIZES) {
      const { wallMs, cpuMs, turns } = await measure(size, scenario);
      rows.push({
        metric: `${scenario.name}, ${size} agents: wall time per turn`,
        value: `${(wallMs / turns).toFixed(3)} ms (CPU ${(cpuMs / turns).toFixed(3)} ms; ${turns} turns)`,
        ...(scenario.hasTarget ? { target: `≤ ${TARGET_MS} ms`, met: wallMs / turns <= TARGET_MS } : {}),
      });
    }
  }
  rows.push({
    metric:
      'creating one new file in a folder beside the orgs, right after the runs (context for the second scenario)',
    value: `${newFileMicros().toFixed(0)} µs`,
  });
  return {
    title: 'Engine overhead per agent turn (scripted provider)',
    rows,
    notes: [
      `Each size runs at least ${MEASURED_TURNS} measured turns (and at least ${MIN_TICKS} ticks) after ${WARM_UP_TURNS} warm-up turns, every agent firing every tick, concurrency 4. ` +
        "The scripted provider answers at once, so the wall time per turn is the engine's own: discovery, the inbox, prompt building, " +
        "parsing, the per-turn SQLite transaction, search indexing of the tick's events, and the LeMMing log, outbox, memory, credits and tick files. " +
        'CPU is the process CPU time (user + system) over the same ticks, divided by the turns; it can exceed the wall time because the kernel and V8 work on the second core.',
      "The target is held to the first scenario, where everything measured is the engine's own work. The second adds what the agent asked for: " +
        "an outbox entry (a new file, a message row, an inbox entry for its readers) and a memory update (the key's file replaced). " +
        "Each message is a new file, and creating a file costs this machine's shared disk between about 20 and 700 µs depending on the moment (measured), so that scenario moves with the disk more than with the engine.",
      "Outbox and memory files are written atomically (temp file, rename) but not flushed one by one: the turn's SQLite transaction journals them and a restart writes them again. " +
        'SQLite runs in WAL mode with synchronous = NORMAL. Both survive the app being killed; a power cut can lose the newest of both (see writeFileAtomicUnflushed).',
    ],
  };
}

/** Mean time to create, close and remove an empty file in a fresh folder beside the orgs'. */
function newFileMicros(): number {
  const folder = mkdtempSync(join(tmpdir(), 'lemming-engine-bench-files-'));
  try {
    const files = 200;
    const began = performance.now();
    for (let index = 0; index < files; index += 1) closeSync(openSync(join(folder, `f${index}`), 'wx'));
    return ((performance.now() - began) * 1000) / files;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await engineBench(), null, 2));
}
