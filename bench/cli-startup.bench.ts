// Start-up of `lemming help` and `lemming status` (the compiled CLI, as `npm ci` builds it), against
// LeMMing's `--help` and `status` in the same run when LEMMING_CHECKOUT names a LeMMing checkout
// (run with `python3 -m lemming.cli` there; LEMMING_PYTHON picks another interpreter). Interleaved runs.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow, BenchSection } from './bench-section';

const RUNS = Number(process.env.LEMMING_BENCH_STARTUP_RUNS ?? 15);
const repoRoot = resolve(import.meta.dirname, '..');

interface Command {
  name: string;
  argv: string[];
  cwd: string;
}

/** CPU of reaped children so far (Linux: /proc/self/stat cutime + cstime), in ms; null elsewhere. */
function childrenCpuMs(): number | null {
  if (process.platform !== 'linux') return null;
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  // Fields 16 and 17 of the file (cutime, cstime), counted after the command name: indexes 13 and 14.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

function runOnce(command: Command): { wallMs: number; cpuMs: number | null } {
  const cpuBefore = childrenCpuMs();
  const began = performance.now();
  const result = spawnSync(command.argv[0]!, command.argv.slice(1), {
    cwd: command.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = performance.now() - began;
  if (result.status !== 0)
    throw new Error(`${command.name} failed (${result.status}): ${result.stderr.toString()}`);
  const cpuAfter = childrenCpuMs();
  return { wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export default async function cliStartupBench(): Promise<BenchSection> {
  const scratch = mkdtempSync(join(tmpdir(), 'lemming-startup-bench-'));
  const org = join(scratch, 'org');
  cpSync(join(repoRoot, 'examples', 'demo-org'), org, { recursive: true });
  const lemming = join(repoRoot, 'bin', 'lemming.mjs');
  const commands: Command[] = [
    { name: 'lemming help', argv: [process.execPath, lemming, 'help'], cwd: repoRoot },
    { name: 'lemming status', argv: [process.execPath, lemming, 'status', org], cwd: repoRoot },
  ];
  const checkout = process.env.LEMMING_CHECKOUT;
  const python = process.env.LEMMING_PYTHON ?? 'python3';
  if (checkout) {
    // LeMMing's status refuses an org without credits.json (ours starts one when it runs): give both the
    // same file, so both read one more config file.
    const credits = Object.fromEntries(
      readdirSync(join(org, 'agents')).map((agent) => [
        agent,
        { model: 'demo', cost_per_action: 0.01, credits_left: 100 },
      ]),
    );
    writeFileSync(join(org, 'lemming', 'config', 'credits.json'), JSON.stringify(credits, null, 2));
    commands.push(
      { name: 'LeMMing --help', argv: [python, '-m', 'lemming.cli', '--help'], cwd: checkout },
      {
        name: 'LeMMing status',
        argv: [python, '-m', 'lemming.cli', '--base-path', org, 'status'],
        cwd: checkout,
      },
    );
  }
  const samples = new Map(
    commands.map((command) => [command.name, [] as { wallMs: number; cpuMs: number | null }[]]),
  );
  try {
    for (const command of commands) runOnce(command); // warm the disk cache and Node's compile cache
    for (let run = 0; run < RUNS; run += 1)
      for (const command of commands) samples.get(command.name)!.push(runOnce(command));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const rows: BenchRow[] = commands.map((command) => {
    const runs = samples.get(command.name)!;
    const walls = runs.map((run) => run.wallMs);
    const cpus = runs.flatMap((run) => (run.cpuMs === null ? [] : [run.cpuMs]));
    const cpu = cpus.length ? `, CPU mean ${mean(cpus).toFixed(0)} ms` : '';
    return {
      metric: `${command.name}: start-up`,
      value: `wall median ${median(walls).toFixed(0)} ms (${Math.min(...walls).toFixed(0)}–${Math.max(...walls).toFixed(0)})${cpu}`,
    };
  });
  return {
    title: 'CLI start-up',
    rows,
    notes: [
      `${RUNS} interleaved runs of each command after one warm-up run; CPU is the reaped children's user + system time (Linux, 10 ms ticks, so only the mean is meaningful).`,
      checkout
        ? `LeMMing from ${checkout} with ${python}.`
        : 'LeMMing not compared: set LEMMING_CHECKOUT to a LeMMing checkout (and LEMMING_PYTHON if needed) to run its --help and status in the same run.',
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await cliStartupBench(), null, 2));
}
