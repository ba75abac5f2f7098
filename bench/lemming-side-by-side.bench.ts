// The same org run by LeMMing and by us, interleaved, each engine in a process of its own: a 100-agent
// org on a `cli` model (one program that answers at once, the same for both) and a 20-agent org on a
// loopback OpenAI-compatible server that answers in 1 s. LeMMing runs when LEMMING_CHECKOUT names a
// LeMMing checkout (python3 there, or LEMMING_PYTHON); without it only our side runs and the section
// says why. Sizes: LEMMING_BENCH_CLI_AGENTS, LEMMING_BENCH_CLI_TICKS, LEMMING_BENCH_CLI_REPS.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { sendJson, startLoopbackServer } from '../engine/models/test-support/loopback-server';
import type { BenchRow, BenchSection } from './bench-section';
import { cliNodeFlags, compileBenchChild } from './compiled-child';

const CLI_AGENTS = Number(process.env.LEMMING_BENCH_CLI_AGENTS ?? 100);
const CLI_TICKS = Number(process.env.LEMMING_BENCH_CLI_TICKS ?? 5);
const REPS = Number(process.env.LEMMING_BENCH_CLI_REPS ?? 5);
const WARM_UP_TICKS = 2;
const LATENCY_AGENTS = 20;
const LATENCY_MS = 1000;
const LATENCY_TICKS = 2;
const LATENCY_TARGET_MS = 2000;

const checkout = process.env.LEMMING_CHECKOUT;
const python = process.env.LEMMING_PYTHON ?? 'python3';
const run = promisify(execFile);

/** The answer every agent gives each turn: one message and notes, already LeMMing's response contract. */
const ANSWER = {
  outbox_entries: [{ kind: 'message', payload: { text: 'checked in' } }],
  tool_calls: [],
  memory_updates: [],
  notes: 'ok',
};

interface TickCost {
  wallMs: number;
  cpuMs: number;
  /** Ours only: the engine process's own CPU, without the spawner helper and the model programs. */
  engineCpuMs?: number;
}

/**
 * LeMMing's side: `lemming run`'s loop (validate, then run_tick and persist_tick per tick, without the
 * sleep between ticks), with the logging `lemming.cli` sets up. CPU: this process and its reaped children.
 */
const LEMMING_DRIVER = `
import json, os, sys, time
from pathlib import Path
sys.path.insert(0, os.getcwd())
import lemming.cli
from lemming.config_validation import validate_everything
from lemming.engine import load_tick, persist_tick, run_tick
base, warm, measured = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
errors = validate_everything(base)
if errors:
    sys.exit("LeMMing refused the org: " + "; ".join(errors))
tick = load_tick(base)
def run(count):
    global tick
    for _ in range(count):
        run_tick(base, tick)
        persist_tick(base, tick + 1)
        tick += 1
run(warm)
before, began = os.times(), time.perf_counter()
run(measured)
wall, after = time.perf_counter() - began, os.times()
cpu = sum(getattr(after, f) - getattr(before, f) for f in ("user", "system", "children_user", "children_system"))
print(json.dumps({"wallMs": wall * 1000, "cpuMs": cpu * 1000}))
`;

function agentName(index: number): string {
  return `agent_${String(index).padStart(4, '0')}`;
}

/** An org in LeMMing's format that both engines open: `models` for every agent's model `key`. */
export function buildOrg(agentCount: number, models: Record<string, unknown>, key: string): string {
  const org = join(mkdtempSync(join(tmpdir(), 'lemming-side-by-side-')), 'org');
  const write = (path: string, value: unknown) => {
    mkdirSync(dirname(join(org, path)), { recursive: true });
    writeFileSync(join(org, path), `${JSON.stringify(value, null, 2)}\n`);
  };
  write('lemming/config/models.json', models);
  write('lemming/config/org_config.json', { base_turn_seconds: 1, max_outbox_age_ticks: 100 });
  const names = Array.from({ length: agentCount }, (_, index) => agentName(index));
  write(
    'lemming/config/credits.json',
    Object.fromEntries(
      names.map((name) => [name, { model: key, cost_per_action: 0.01, credits_left: 1_000_000 }]),
    ),
  );
  names.forEach((name, index) =>
    write(`agents/${name}/resume.json`, {
      name,
      title: 'Bench agent',
      short_description: 'Checks in every tick.',
      instructions: 'Work.',
      model: { key },
      // Each reads two neighbours, so inboxes are not empty.
      permissions: {
        read_outboxes: [agentName((index + 1) % agentCount), agentName((index + 7) % agentCount)],
        tools: [],
      },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    }),
  );
  return org;
}

function cliOrg(): string {
  const org = buildOrg(CLI_AGENTS, {}, 'answer');
  const program = join(dirname(org), 'answer.sh');
  writeFileSync(program, `#!/bin/sh\necho '${JSON.stringify(ANSWER)}'\n`);
  chmodSync(program, 0o755);
  // A string command: LeMMing's CLIProvider appends the prompt to a list command in place, so a list would grow every call.
  writeFileSync(
    join(org, 'lemming', 'config', 'models.json'),
    `${JSON.stringify({ answer: { provider: 'cli', model_name: 'answer', provider_config: { command: program } } }, null, 2)}\n`,
  );
  return org;
}

export const removeOrg = (org: string) => rmSync(dirname(org), { recursive: true, force: true });

export async function runLemming(
  org: string,
  warm: number,
  measured: number,
  env = process.env,
): Promise<TickCost> {
  const { stdout } = await run(python, ['-c', LEMMING_DRIVER, org, String(warm), String(measured)], {
    cwd: checkout,
    env,
    maxBuffer: 256 * 2 ** 20,
  });
  return perTick(JSON.parse(stdout.trim().split('\n').at(-1)!) as TickCost, measured);
}

async function runOurs(child: string, org: string, warm: number, measured: number): Promise<TickCost> {
  const { stdout } = await run(
    process.execPath,
    [...cliNodeFlags(), child, org, String(warm), String(measured)],
    {
      maxBuffer: 64 * 2 ** 20,
    },
  );
  return perTick(JSON.parse(stdout.trim().split('\n').at(-1)!) as TickCost, measured);
}

const perTick = (cost: TickCost, ticks: number): TickCost => ({
  wallMs: cost.wallMs / ticks,
  cpuMs: cost.cpuMs / ticks,
  ...(cost.engineCpuMs === undefined ? {} : { engineCpuMs: cost.engineCpuMs / ticks }),
});

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const range = (values: number[], digits = 0) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function cliOrgRows(child: string): Promise<BenchRow[]> {
  const ours: TickCost[] = [];
  const theirs: TickCost[] = [];
  // Removed only after the last repetition: on ext4, a file created within a minute or so of thousands
  // being deleted costs ~0.5–0.8 ms of kernel time (the inode allocator skips recently freed inodes, see
  // find_inode_bit and recently_deleted in perf), which both engines pay once per message file. Removing
  // each copy before the next run measured that cleanup, not the engines.
  const orgs: string[] = [];
  try {
    for (let rep = 0; rep < REPS; rep += 1) {
      // Alternating which engine goes first, each on a fresh copy of the same org.
      const order = rep % 2 === 0 ? ['ours', 'lemming'] : ['lemming', 'ours'];
      for (const engine of order) {
        if (engine === 'lemming' && !checkout) continue;
        const org = cliOrg();
        orgs.push(org);
        if (engine === 'ours') ours.push(await runOurs(child, org, WARM_UP_TICKS, CLI_TICKS));
        else theirs.push(await runLemming(org, WARM_UP_TICKS, CLI_TICKS));
      }
    }
  } finally {
    orgs.forEach(removeOrg);
  }
  const describe = (costs: TickCost[]) =>
    `wall ${median(costs.map((cost) => cost.wallMs)).toFixed(0)} ms (${range(costs.map((cost) => cost.wallMs))}), ` +
    `CPU ${median(costs.map((cost) => cost.cpuMs)).toFixed(0)} ms (${range(costs.map((cost) => cost.cpuMs))})`;
  const engineCpu = median(ours.map((cost) => cost.engineCpuMs ?? 0));
  const rows: BenchRow[] = [
    {
      metric: `${CLI_AGENTS}-agent \`cli\` org, our tick (medians, spread)`,
      value: `${describe(ours)}; the engine process alone ${engineCpu.toFixed(0)} ms`,
    },
  ];
  if (theirs.length === 0) return rows;
  const wallRatios = ours.map((cost, index) => cost.wallMs / theirs[index]!.wallMs);
  const cpuRatios = ours.map((cost, index) => cost.cpuMs / theirs[index]!.cpuMs);
  rows.push(
    { metric: `same org, LeMMing's tick`, value: describe(theirs) },
    {
      metric: 'same org, ours ÷ LeMMing per tick, wall (median of the repetitions, spread)',
      value: `${median(wallRatios).toFixed(2)}× (${range(wallRatios, 2)})`,
      target: '≤ 1×',
      met: median(wallRatios) <= 1,
    },
    {
      metric: 'same org, ours ÷ LeMMing per tick, CPU of the process tree',
      value: `${median(cpuRatios).toFixed(2)}× (${range(cpuRatios, 2)})`,
      target: '≤ 1×',
      met: median(cpuRatios) <= 1,
    },
  );
  return rows;
}

/** A chat completion in OpenAI's wire format after LATENCY_MS, whose content is the LeMMing answer. */
async function slowModelServer() {
  return startLoopbackServer(async (_request, response) => {
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
    sendJson(response, 200, {
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: JSON.stringify(ANSWER) }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
}

/** Whether LeMMing's openai provider can run: it needs the `openai` Python package. */
function lemmingHasOpenAi(): boolean {
  return (
    checkout !== undefined && spawnSync(python, ['-c', 'import openai'], { stdio: 'ignore' }).status === 0
  );
}

async function latencyOrgRows(child: string): Promise<{ rows: BenchRow[]; note: string }> {
  const server = await slowModelServer();
  try {
    const ours = buildOrg(
      LATENCY_AGENTS,
      {
        slow: {
          provider: 'openai-compatible',
          model_name: 'slow',
          provider_config: { base_url: `${server.url}/v1`, timeout_ms: 30_000 },
        },
      },
      'slow',
    );
    let oursCost: TickCost;
    try {
      oursCost = await runOurs(child, ours, 1, LATENCY_TICKS);
    } finally {
      removeOrg(ours);
    }
    const rows: BenchRow[] = [
      {
        metric: `${LATENCY_AGENTS}-agent org on a loopback OpenAI-compatible server answering in ${LATENCY_MS / 1000} s: our tick, wall`,
        value: `${oursCost.wallMs.toFixed(0)} ms (CPU ${oursCost.cpuMs.toFixed(0)} ms)`,
        target: `≤ ${LATENCY_TARGET_MS} ms`,
        met: oursCost.wallMs <= LATENCY_TARGET_MS,
      },
    ];
    const design = `${((LATENCY_AGENTS * LATENCY_MS) / 1000).toFixed(0)} s`;
    if (!lemmingHasOpenAi())
      return {
        rows: [
          ...rows,
          {
            metric: "same org, LeMMing's tick",
            value: `not run; by its design ≥ ${design} (one call after another)`,
          },
        ],
        note: checkout
          ? `LeMMing's openai provider needs the \`openai\` Python package, which ${python} here does not have, so its 1 s-latency tick is its design figure: run_tick calls each firing agent's model in turn.`
          : 'LeMMing not run: set LEMMING_CHECKOUT to a LeMMing checkout (and LEMMING_PYTHON if needed).',
      };
    // LeMMing's OpenAI client reads its address and key from the environment.
    const theirs = buildOrg(LATENCY_AGENTS, { slow: { provider: 'openai', model_name: 'slow' } }, 'slow');
    try {
      const cost = await runLemming(theirs, 0, 1, {
        ...process.env,
        OPENAI_BASE_URL: `${server.url}/v1`,
        OPENAI_API_KEY: 'loopback',
      });
      rows.push({
        metric: "same org, LeMMing's tick, wall",
        value: `${cost.wallMs.toFixed(0)} ms (design ≥ ${design})`,
      });
    } finally {
      removeOrg(theirs);
    }
    return { rows, note: `LeMMing ran its openai provider against the same server (OPENAI_BASE_URL).` };
  } finally {
    await server.close();
  }
}

export default async function lemmingSideBySideBench(): Promise<BenchSection> {
  const child = await compileBenchChild('cli-org-child.ts');
  try {
    const cliRows = await cliOrgRows(child);
    const latency = await latencyOrgRows(child);
    return {
      title: 'Side by side with LeMMing: a cli org and a 1 s model',
      rows: [...cliRows, ...latency.rows],
      notes: [
        `${CLI_AGENTS}-agent org: every agent fires every tick and reads two others' outboxes; its model is one shell script that prints a message and notes (the same program for both engines, the prompt as its last argument). ` +
          `Each repetition runs each engine in a process of its own on a fresh copy of the org: ${WARM_UP_TICKS} warm-up ticks, then ${CLI_TICKS} measured; ${REPS} repetitions, the order alternating. ` +
          "Wall and CPU are per measured tick; CPU is the process tree (the engine, our program-spawner helper, the model programs). Ours runs compiled with `lemming run`'s Node flags (`bin/node-runtime.mjs`); LeMMing runs `lemming run`'s loop without its sleep between ticks.",
        checkout
          ? `LeMMing from ${checkout} with ${python}.`
          : 'LeMMing not compared: set LEMMING_CHECKOUT to a LeMMing checkout (and LEMMING_PYTHON if needed) to run it in the same run.',
        latency.note,
      ],
    };
  } finally {
    rmSync(dirname(child), { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await lemmingSideBySideBench(), null, 2));
}
