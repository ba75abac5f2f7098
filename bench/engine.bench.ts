// The engine's own cost per agent turn with the scripted provider, at 10, 100 and 1000 agents.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OrgEngine } from '../engine/run/org-engine';
import type { BenchSection } from './bench-section';

const SIZES = [10, 100, 1000];
const TICKS = 3;
const TARGET_MS = 1;

interface Scenario {
  name: string;
  /** What each agent answers every turn. */
  respond: Record<string, unknown>;
}

const SCENARIOS: Scenario[] = [
  { name: 'notes only', respond: { notes: 'checked in' } },
  { name: 'one message + one memory write', respond: { outbox_entries: [{ kind: 'status', payload: { text: 'working' } }], memory_updates: [{ key: 'seen', op: 'append', value: 1 }], notes: 'sent' } },
];

function buildOrg(agentCount: number, scenario: Scenario): string {
  const org = join(mkdtempSync(join(tmpdir(), 'lemming-engine-bench-')), 'org');
  const write = (path: string, value: unknown) => {
    mkdirSync(dirname(join(org, path)), { recursive: true });
    writeFileSync(join(org, path), JSON.stringify(value, null, 2));
  };
  write('lemming/config/models.json', { scripted: { provider: 'scripted', model_name: 'bench', provider_config: { script: 'script.json' } } });
  write('script.json', { default: [{ respond: scenario.respond }] });
  for (let index = 0; index < agentCount; index += 1) {
    const name = `agent_${String(index).padStart(4, '0')}`;
    write(`agents/${name}/resume.json`, {
      name,
      title: 'Bench agent',
      instructions: 'Work.',
      model: { key: 'scripted' },
      // Each reads two neighbours, so inboxes are not empty.
      permissions: { read_outboxes: [`agent_${String((index + 1) % agentCount).padStart(4, '0')}`, `agent_${String((index + 7) % agentCount).padStart(4, '0')}`], tools: [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    });
  }
  return org;
}

async function measure(agentCount: number, scenario: Scenario): Promise<{ wallMs: number; cpuMs: number; turns: number }> {
  const org = buildOrg(agentCount, scenario);
  try {
    const engine = await OrgEngine.open({ orgPath: org, env: {} });
    try {
      await engine.runTick(); // warm-up: seeds balances, compiles statements, reads the script
      const began = performance.now();
      const cpuBefore = process.cpuUsage();
      for (let tick = 0; tick < TICKS; tick += 1) await engine.runTick();
      const cpu = process.cpuUsage(cpuBefore);
      return { wallMs: performance.now() - began, cpuMs: (cpu.user + cpu.system) / 1000, turns: agentCount * TICKS };
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
        target: `≤ ${TARGET_MS} ms`,
        met: wallMs / turns <= TARGET_MS,
      });
    }
  }
  return {
    title: 'Engine overhead per agent turn (scripted provider)',
    rows,
    notes: [
      `Each size runs ${TICKS} measured ticks after one warm-up tick, every agent firing every tick, concurrency 4. ` +
        'The scripted provider answers at once, so the wall time per turn is the engine\'s own: discovery, prompt building, ' +
        'parsing, the per-turn SQLite transaction, and the LeMMing log, outbox and memory files. CPU is the process CPU time ' +
        '(user + system) over the same ticks, divided by the turns.',
      'Outbox and memory files are written atomically (temp file, fsync, rename), so the second scenario includes two fsyncs per turn on this disk.',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await engineBench(), null, 2));
}
