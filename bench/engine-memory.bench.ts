// The engine's resident memory over a long run: 1,000 agents × 200 ticks with the scripted provider, in
// a Node process of its own running compiled code, as `lemming run` does (no tsx, no bench around it).
// Smaller runs for a quick look: LEMMING_BENCH_MEMORY_AGENTS and LEMMING_BENCH_MEMORY_TICKS.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { BenchSection } from './bench-section';
import { cliNodeFlags, compileBenchChild } from './compiled-child';
import { buildOrg } from './engine.bench';

const AGENTS = Number(process.env.LEMMING_BENCH_MEMORY_AGENTS ?? 1000);
const TICKS = Number(process.env.LEMMING_BENCH_MEMORY_TICKS ?? 200);
const EARLY_TICK = Math.min(20, TICKS);
const RSS_LIMIT_MB = 250;
const GROWTH_LIMIT = 1.2;

const mb = (bytes: number) => bytes / 2 ** 20;

export default async function engineMemoryBench(): Promise<BenchSection> {
  const org = buildOrg(AGENTS, {
    respond: {
      outbox_entries: [{ kind: 'status', payload: { text: 'working' } }],
      memory_updates: [{ key: 'seen', op: 'set', value: 1 }],
      notes: 'sent',
    },
  });
  const child = await compileBenchChild('engine-memory-child.ts');
  let rss: Map<number, number>;
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...cliNodeFlags(), child, org, String(TICKS)],
      {
        maxBuffer: 64 * 2 ** 20,
      },
    );
    rss = new Map(
      stdout
        .split('\n')
        .filter((line) => line.startsWith('RSS '))
        .map((line) => line.split(' ').slice(1).map(Number) as [number, number]),
    );
  } finally {
    rmSync(dirname(child), { recursive: true, force: true });
    rmSync(dirname(org), { recursive: true, force: true });
  }
  const early = rss.get(EARLY_TICK)!;
  const last = rss.get(TICKS)!;
  const peak = Math.max(...rss.values());
  const along = [...rss].filter(
    ([tick]) => tick === 1 || tick === EARLY_TICK || tick % 20 === 0 || tick === TICKS,
  );
  return {
    title: `Engine memory over a long run (${AGENTS} agents × ${TICKS} ticks, scripted provider)`,
    rows: [
      {
        metric: `RSS at tick ${TICKS}`,
        value: `${mb(last).toFixed(0)} MB (peak ${mb(peak).toFixed(0)} MB)`,
        target: `≤ ${RSS_LIMIT_MB} MB`,
        met: mb(last) <= RSS_LIMIT_MB,
      },
      {
        metric: `RSS at tick ${TICKS} against tick ${EARLY_TICK}`,
        value: `${(last / early).toFixed(2)}×`,
        target: `≤ ${GROWTH_LIMIT}×`,
        met: last / early <= GROWTH_LIMIT,
      },
      {
        metric: 'RSS along the run',
        value: along.map(([tick, bytes]) => `tick ${tick}: ${mb(bytes).toFixed(0)} MB`).join(', '),
      },
    ],
    notes: [
      'The engine runs compiled (esbuild) in a Node process of its own, with the Node flags of `lemming run` (`bin/node-runtime.mjs`) and without forced garbage collection. Every agent fires every tick, sends one status message and sets one memory key.',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await engineMemoryBench(), null, 2));
}
