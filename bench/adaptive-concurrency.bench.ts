// Issue 34: ticks against model servers of known capacity, with no concurrency setting, side by side
// with LeMMing on the same server in the same run. Loopback servers answering in 1 s: (1) any number
// of calls at once, (2) 8 at once and a queue beyond, (3) 429 with rate-limit headers beyond 50 in
// flight. Our tick against the ideal, latency × ceil(agents ÷ capacity), and against LeMMing's.
// LeMMing runs when LEMMING_CHECKOUT names a LeMMing checkout (its ollama provider: python3 with
// `requests`); all its runs start at once, beside ours, each on a server of its own (it makes one call
// at a time, so it barely uses the CPU), one tick a size. Sizes: LEMMING_BENCH_AGENTS (default 20,100,500); servers: LEMMING_BENCH_SERVERS (1,2,3).
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { SERVER_LIMITS_FILE } from '../engine/run/server-limits';
import { startCapacityServer, type Capacity } from '../engine/run/test-support/capacity-servers';
import type { BenchRow, BenchSection } from './bench-section';
import { cliNodeFlags, compileBenchChild } from './compiled-child';
import { buildOrg, median, removeOrg, runLemming } from './lemming-side-by-side.bench';

const LATENCY_MS = 1000;
const SIZES = (process.env.LEMMING_BENCH_AGENTS ?? '20,100,500').split(',').map(Number);
const SERVERS = (process.env.LEMMING_BENCH_SERVERS ?? '1,2,3').split(',').map(Number);
const checkout = process.env.LEMMING_CHECKOUT;
const run = promisify(execFile);

interface ServerUnderTest {
  name: string;
  capacity: Capacity;
  /** Calls the server serves at once, for the ideal tick. */
  serves: number;
  /** Our provider for it: a local server speaks Ollama's API, a hosted one OpenAI's. */
  provider: 'ollama' | 'openai-compatible';
  /** Also run with the limit opened by hand (max_concurrent_calls = agents): what the engine does unheld. */
  openedByHand?: boolean;
  /** Each size's ticks and the target a tick from the third on is held to, in ms. */
  ticks: (agents: number) => number;
  target: (agents: number, idealMs: number) => number | null;
}

const SERVERS_UNDER_TEST: Record<number, ServerUnderTest> = {
  1: {
    name: '(1) any number of calls at once',
    capacity: { kind: 'unlimited' },
    serves: Number.POSITIVE_INFINITY,
    provider: 'ollama',
    openedByHand: true,
    ticks: () => 5,
    // Done-means 1 of issue 34: 500 agents ≤ 2 s, 100 agents ≤ 1.5 s; Done-means 2 for the others.
    target: (agents) => (agents >= 500 ? 2000 : agents >= 100 ? 1500 : null),
  },
  2: {
    name: '(2) 8 calls at once, a queue beyond',
    capacity: { kind: 'slots', capacity: 8 },
    serves: 8,
    provider: 'ollama',
    ticks: (agents) => (agents >= 500 ? 3 : 5),
    target: (agents, ideal) => (agents === 100 ? 1.2 * ideal : null),
  },
  3: {
    name: '(3) 429 beyond 50 calls in flight',
    capacity: { kind: 'rate-limited', capacity: 50 },
    serves: 50,
    provider: 'openai-compatible',
    ticks: () => 5,
    target: (agents, ideal) => (agents === 100 ? 1.3 * ideal : null),
  },
};

interface OurTick {
  wallMs: number;
  failed: number;
  limit: number | null;
  longestWaitMs: number;
}

async function runOurs(child: string, org: string, ticks: number): Promise<OurTick[]> {
  const { stdout } = await run(process.execPath, [...cliNodeFlags(), child, org, String(ticks)], {
    maxBuffer: 64 * 2 ** 20,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as OurTick[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/**
 * LeMMing's tick on a server of its own of the given kind (its one call at a time would take a slot of
 * ours), started at once: it sleeps on the server nearly all the time, so all of them run beside ours.
 */
function startLemming(server: ServerUnderTest, agents: number): Promise<number | null> {
  if (!checkout) return Promise.resolve(null);
  return (async () => {
    const model = await startCapacityServer(server.capacity, LATENCY_MS);
    const org = buildOrg(
      agents,
      {
        checkin: {
          provider: 'ollama',
          model_name: 'checkin',
          provider_config: { base_url: model.server.url },
        },
      },
      'checkin',
    );
    try {
      return (await runLemming(org, 0, 1)).wallMs;
    } finally {
      removeOrg(org);
      await model.close();
    }
  })();
}

async function measure(
  child: string,
  server: ServerUnderTest,
  agents: number,
  lemming: Promise<number | null>,
): Promise<BenchRow[]> {
  const model = await startCapacityServer(server.capacity, LATENCY_MS);
  const url = model.server.url;
  const orgOnServer = (providerConfig: Record<string, unknown> = {}) =>
    buildOrg(
      agents,
      {
        checkin: {
          provider: server.provider,
          model_name: 'checkin',
          provider_config: { base_url: server.provider === 'ollama' ? url : `${url}/v1`, ...providerConfig },
        },
      },
      'checkin',
    );
  const ours = orgOnServer();
  try {
    const ticks = await runOurs(child, ours, server.ticks(agents));
    const learned = JSON.parse(readFileSync(join(ours, SERVER_LIMITS_FILE), 'utf8')) as {
      servers: Record<string, { limit: number }>;
    };
    let byHand: OurTick[] | null = null;
    if (server.openedByHand) {
      const opened = orgOnServer({ max_concurrent_calls: agents });
      try {
        byHand = await runOurs(child, opened, server.ticks(agents));
      } finally {
        removeOrg(opened);
      }
    }
    const lemmingMs = await lemming;
    const idealMs = LATENCY_MS * Math.max(1, Math.ceil(agents / server.serves));
    const settled = median(ticks.slice(2).map((tick) => tick.wallMs));
    const target = server.target(agents, idealMs);
    const failed = ticks.reduce((sum, tick) => sum + tick.failed, 0);
    return [
      {
        metric: `${server.name}, ${agents} agents: our tick from the third on (median), against the ideal ${seconds(idealMs)}`,
        value:
          `${seconds(settled)} (${(settled / idealMs).toFixed(2)}× the ideal); ticks ${ticks.map((tick) => (tick.wallMs / 1000).toFixed(1)).join(', ')} s; ` +
          `limit after each ${ticks.map((tick) => tick.limit).join(', ')}, remembered ${Object.values(learned.servers)[0]?.limit}; ` +
          `${failed} failed turns, ${model.counts.refused} calls refused (429), at most ${model.counts.most} served at once; ` +
          `longest wait for the server in a tick ${seconds(Math.max(...ticks.map((tick) => tick.longestWaitMs)))}`,
        ...(target === null
          ? {}
          : { target: `≤ ${seconds(target)}, 0 failed`, met: settled <= target && failed === 0 }),
      },
      ...(byHand
        ? [
            {
              metric: `same, the limit opened by hand (max_concurrent_calls ${agents}): our tick from the third on (median)`,
              value: `${seconds(median(byHand.slice(2).map((tick) => tick.wallMs)))}; ticks ${byHand.map((tick) => (tick.wallMs / 1000).toFixed(1)).join(', ')} s`,
            },
          ]
        : []),
      {
        metric: `same server and org, LeMMing's tick (one tick)`,
        value:
          lemmingMs === null
            ? 'not run (LEMMING_CHECKOUT not set)'
            : `${seconds(lemmingMs)}: ours ${(lemmingMs / settled).toFixed(0)}× faster`,
      },
    ];
  } finally {
    removeOrg(ours);
    await model.close();
  }
}

export default async function adaptiveConcurrencyBench(): Promise<BenchSection> {
  const child = await compileBenchChild('adaptive-concurrency-child.ts');
  try {
    const runs = SERVERS.flatMap((which) =>
      SIZES.map((agents) => {
        const server = SERVERS_UNDER_TEST[which]!;
        const lemming = startLemming(server, agents);
        // Awaited in measure; a failure there must not go unhandled while ours run first.
        lemming.catch(() => undefined);
        return { server, agents, lemming };
      }),
    );
    const rows: BenchRow[] = [];
    for (const { server, agents, lemming } of runs) {
      console.log(`${server.name}, ${agents} agents…`);
      rows.push(...(await measure(child, server, agents, lemming)));
    }
    return {
      title: 'Concurrency learned from each model server (issue 34)',
      rows,
      notes: [
        `Loopback servers answering every call in ${LATENCY_MS / 1000} s (engine/run/test-support/capacity-servers.ts), Ollama's /api/chat and OpenAI's chat completions, not streamed. ` +
          'Orgs in LeMMing format, every agent fires every tick and reads two others; no concurrency setting (the defaults a person gets: Ollama starts at 4 at once, an OpenAI-compatible server at 32). ' +
          'Ours: a fresh org and engine process per server and size, every tick timed; the limit is the learned calls at once at the end of each tick. ' +
          'The ideal is latency × ceil(agents ÷ the calls the server serves at once). ' +
          'LeMMing: its `lemming run` loop for one tick with its ollama provider, on a server of the same kind of its own (for server 3 too: it sends one call at a time, so it never meets the 429); all its runs go at once, beside ours, since they wait on the servers nearly all the time.',
        checkout
          ? `LeMMing from ${checkout}.`
          : 'LeMMing not compared: set LEMMING_CHECKOUT to a LeMMing checkout to run it in the same run.',
      ],
    };
  } finally {
    rmSync(dirname(child), { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await adaptiveConcurrencyBench(), null, 2));
}
