import { readFile } from 'node:fs/promises';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../files/atomic-write';
import type { ServerAnswer } from '../models/types';
import { isRateLimitStatus } from '../models/http-json';
import {
  admitted,
  LIMIT_CEILING,
  observe,
  startingLimit,
  type LearnedLimit,
  type LimitState,
} from './adaptive-limit';
import { Slots, type Gate } from './concurrency';

/**
 * What was learned of each model server, kept in the org's own folder for the app (never read by
 * LeMMing), beside the timeline: the learning belongs to the run state of the org that did it, and an
 * org moved to another computer starts from what it found there instead of from the defaults.
 */
export const SERVER_LIMITS_FILE = '.lemming/model-servers.json';

const LearnedServers = z.object({
  servers: z.record(
    z.string(),
    z.object({
      limit: z.number().int().min(1).max(LIMIT_CEILING),
      baseline_ms: z.number().positive().nullable(),
    }),
  ),
});

/** What the limit of one server is now, for the record and the model's card. */
export interface ServerLimitView {
  server: string;
  limit: number;
  learned: boolean;
}

interface Server {
  state: LimitState;
  slots: Slots;
  adaptive: boolean;
  /** Attempts sent to the server and not answered yet. */
  atServer: number;
  called: boolean;
}

/**
 * One limiter per model server (provider and base URL), for the whole life of the engine: a turn holds
 * one of its server's slots while it runs; every HTTP attempt's answer moves that server's limit.
 */
export class ServerLimits {
  private readonly servers = new Map<string, Server>();
  private readonly engineLoad = new EngineLoad();
  private learned: Record<string, LearnedLimit> | undefined;
  private savedText = '';

  constructor(
    private readonly orgPath: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads what earlier runs learned; a missing or unreadable file means nothing was learned. */
  async load(): Promise<void> {
    if (this.learned !== undefined) return;
    const { text, learned } = await readLearned(this.orgPath);
    this.savedText = text;
    this.learned = learned;
  }

  /**
   * The gate of one server. `fixed`: a number set by hand (max_concurrent_calls) or a provider that is no
   * server (the cli and scripted providers): it never moves and is not remembered.
   */
  gate(server: string, start: number, fixed: boolean): Gate {
    return this.serverOf(server, start, fixed).slots;
  }

  /** An attempt at a call was sent to `server`. */
  sent(server: string): void {
    const entry = this.servers.get(server);
    if (!entry) return;
    entry.atServer += 1;
    entry.called = true;
  }

  /** Takes in how one attempt at a call to `server` went. */
  answered(server: string, answer: ServerAnswer): void {
    const entry = this.servers.get(server);
    if (!entry) return;
    const inFlight = entry.atServer;
    entry.atServer = Math.max(0, entry.atServer - 1);
    if (!entry.adaptive) return;
    entry.state = observe(entry.state, {
      startedAt: answer.startedAt,
      endedAt: answer.endedAt,
      inFlight,
      answer:
        answer.status !== null && answer.status >= 200 && answer.status < 300
          ? 'answered'
          : isRateLimitStatus(answer.status ?? undefined)
            ? 'rate_limited'
            : 'failed',
      retryAfterMs: answer.retryAfterMs,
      remaining: answer.remaining,
      resetMs: answer.resetMs,
      engineBusy: this.engineLoad.busy(),
    });
    entry.slots.admit();
  }

  /** Calls at once now allowed to each model server the engine has sent calls to (not programs). */
  limits(): ServerLimitView[] {
    return [...this.servers]
      .filter(([, entry]) => entry.called)
      .map(([server, entry]) => ({
        server,
        limit: admitted(entry.state),
        learned: entry.adaptive,
      }));
  }

  /** Sum of what the servers in use now allow: the turns of a tick in flight at once follow it. */
  total(servers: Iterable<string>): number {
    let sum = 0;
    for (const server of new Set(servers)) {
      const entry = this.servers.get(server);
      if (entry) sum += admitted(entry.state);
    }
    return sum;
  }

  /** Writes what was learned, when it changed since it was read or last written. */
  async save(): Promise<void> {
    const servers: z.infer<typeof LearnedServers>['servers'] = {};
    for (const [server, learned] of Object.entries(this.learned ?? {}))
      servers[server] = { limit: learned.limit, baseline_ms: learned.baselineMs };
    for (const [server, entry] of this.servers) {
      if (!entry.adaptive) continue;
      servers[server] = { limit: admitted(entry.state), baseline_ms: roundedOrNull(entry.state.baselineMs) };
    }
    if (Object.keys(servers).length === 0) return;
    const document = { servers };
    const text = `${JSON.stringify(document, null, 2)}\n`;
    if (text === this.savedText) return;
    await writeJsonAtomic(join(this.orgPath, SERVER_LIMITS_FILE), document);
    this.savedText = text;
  }

  private serverOf(server: string, start: number, fixed: boolean): Server {
    const existing = this.servers.get(server);
    if (existing?.adaptive && !fixed) return existing;
    if (existing && !existing.adaptive && fixed) {
      existing.state = { ...existing.state, limit: start };
      return existing;
    }
    const learned = fixed ? undefined : this.learned?.[server];
    const state = startingLimit(start, learned);
    const entry: Server = {
      state,
      adaptive: !fixed,
      atServer: existing?.atServer ?? 0,
      called: existing?.called ?? false,
      slots: new Slots(
        () => admitted(entry.state),
        () => entry.state.holdUntil,
        this.now,
      ),
    };
    if (fixed) entry.state = { ...state, limit: start };
    this.servers.set(server, entry);
    return entry;
  }
}

/** Share of its time the engine's thread was busy, over the last quarter second or more. */
const BUSY_UTILIZATION = 0.9;
const LOAD_INTERVAL_MS = 250;

/** Whether the engine's own thread is busy nearly all the time (its event loop utilization). */
class EngineLoad {
  private since: EventLoopUtilization = performance.eventLoopUtilization();
  private sinceAt = performance.now();
  private last = false;

  busy(): boolean {
    if (performance.now() - this.sinceAt < LOAD_INTERVAL_MS) return this.last;
    const now = performance.eventLoopUtilization();
    this.last = performance.eventLoopUtilization(now, this.since).utilization >= BUSY_UTILIZATION;
    this.since = now;
    this.sinceAt = performance.now();
    return this.last;
  }
}

/** What earlier runs of the org learned of each model server (by `providerKey`), and the file's text. */
export async function readLearned(
  orgPath: string,
): Promise<{ text: string; learned: Record<string, LearnedLimit> }> {
  const text = await readFile(join(orgPath, SERVER_LIMITS_FILE), 'utf8').catch(() => '');
  let parsed: z.infer<typeof LearnedServers>['servers'] = {};
  try {
    parsed = LearnedServers.parse(JSON.parse(text)).servers;
  } catch {
    // A file the app did not write (or a broken one) teaches nothing; the defaults hold until it is rewritten.
  }
  return {
    text,
    learned: Object.fromEntries(
      Object.entries(parsed).map(([server, entry]) => [
        server,
        { limit: entry.limit, baselineMs: entry.baseline_ms },
      ]),
    ),
  };
}

function roundedOrNull(value: number | null): number | null {
  return value === null ? null : Math.max(1, Math.round(value));
}
