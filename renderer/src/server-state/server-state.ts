import type {
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayload,
  IpcResult,
  LemmingApi,
  RunState,
} from '../../../engine/api';
import {
  answeredByEvent,
  queryKey,
  SETTLED_AFTER_TICK,
  slowRefetchMs,
  staleAfterEvent,
  staleAfterWrite,
  type ReadChannel,
  type StaleTarget,
  type WriteChannel,
} from './stale-map';

/**
 * A burst of pushes makes one refetch of each read it touches: the read is asked once the pushes have
 * been quiet this long (main pings every 50 ms at most while a tick runs)…
 */
export const COALESCE_MS = 250;
/** …but no later than this after the first, so a long tick still shows what changes in it. */
export const LONGEST_WAIT_MS = 1000;
/** Answers nobody shows any more are kept for the next who shows them, up to this many (the newest). */
export const KEPT_UNSHOWN = 50;

interface Entry {
  channel: ReadChannel;
  input: unknown;
  result: IpcResult<unknown> | null;
  /** Set by a push or a write: the answer is old; a watched entry is asked again. */
  stale: boolean;
  inFlight: Promise<IpcResult<unknown>> | null;
  /** Made stale while in flight: the answer on its way may be older than the push. */
  again: boolean;
  timer: ReturnType<typeof setTimeout> | null;
  /** When the refetch the timer waits for was first asked (the burst began). */
  staleSince: number;
  /** Counts answers taken from elsewhere (a push, an update's answer): one on its way from before is older. */
  replaced: number;
  watchers: Set<() => void>;
  /** Someone showed this answer: it is kept (until stale) for the next one who shows it. */
  shown: boolean;
}

export interface ServerState {
  /**
   * The answer of a read: the one shown while it is fresh, else one call shared by all who ask meanwhile.
   * An answer nobody shows is not kept (a timeline page read once stays out of memory).
   */
  read<C extends ReadChannel>(channel: C, input: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>;
  /** Asks main now, whatever the cache holds (after a refusal that says the answer moved); shown to all who watch it. */
  refetch<C extends ReadChannel>(channel: C, input: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>;
  /** Keeps a read's answer fresh while watched: `changed` runs whenever its answer changes. */
  watch<C extends ReadChannel>(channel: C, input: ChannelInput<C>, changed: () => void): () => void;
  /** The answer the cache holds now, fresh or stale; null before the first answer. */
  peek<C extends ReadChannel>(channel: C, input: ChannelInput<C>): IpcResult<ChannelOutput<C>> | null;
  /** Takes a value main gave by another call as a read's answer (an update answers with what it changed). */
  replace<C extends ReadChannel>(channel: C, input: ChannelInput<C>, value: ChannelOutput<C>): void;
  /** Makes every answer of `channel` stale (the person came back to the window: its files may have changed). */
  markStale(channel: ReadChannel): void;
  /** Sends a write; when it succeeds, what it changed (stale-map.ts) is stale at once. */
  write<C extends WriteChannel>(channel: C, input: ChannelInput<C>): Promise<IpcResult<ChannelOutput<C>>>;
  /** Listens to a push itself, for the ones that carry what the page shows (`turn.progress`, `app.navigate`). */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/**
 * The renderer's one server-state layer: every read of main goes through this cache, keyed by channel
 * and input; every push marks stale what `staleAfterEvent` says. Answers arrive as values (IpcResult),
 * a call that throws becomes an `internal` error. Built once per window over `window.lemming`.
 */
export function createServerState(api: LemmingApi, coalesceMs = COALESCE_MS): ServerState {
  const entries = new Map<string, Entry>();
  /** Answers shown before and watched by nobody now, oldest first (a Set keeps the order of adding). */
  const unwatched = new Set<Entry>();
  /** Stale reads that wait for the tick in progress to end (SETTLED_AFTER_TICK). */
  const waitingForTick = new Set<Entry>();
  const tickRunning = () => {
    const run = entries.get(queryKey('run.state', {}))?.result;
    return run?.ok === true && (run.value as RunState).tickInProgress !== null;
  };

  const call = async (channel: string, input: unknown): Promise<IpcResult<unknown>> => {
    const [namespace, method] = channel.split('.') as [string, string];
    const send = (api as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[
      namespace
    ]![method]!;
    try {
      return (await send(input)) as IpcResult<unknown>;
    } catch (error) {
      return { ok: false, error: { code: 'internal', message: String(error) } };
    }
  };

  function entryOf(channel: ReadChannel, input: unknown): Entry {
    const key = queryKey(channel, input as never);
    let entry = entries.get(key);
    if (!entry) {
      entry = {
        channel,
        input,
        result: null,
        stale: false,
        inFlight: null,
        again: false,
        timer: null,
        staleSince: 0,
        replaced: 0,
        watchers: new Set(),
        shown: false,
      };
      entries.set(key, entry);
    }
    return entry;
  }

  function notify(entry: Entry) {
    entry.watchers.forEach((changed) => changed());
    if (entry.channel === 'run.state' && !tickRunning()) {
      const waiting = [...waitingForTick];
      waitingForTick.clear();
      waiting.forEach((entry) => markStale(entry));
    }
  }

  function fetch(entry: Entry): Promise<IpcResult<unknown>> {
    if (entry.inFlight) return entry.inFlight;
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
    waitingForTick.delete(entry);
    entry.stale = false;
    entry.again = false;
    const replacedBefore = entry.replaced;
    const asked = call(entry.channel, entry.input).then((result) => {
      entry.inFlight = null;
      if (entry.replaced === replacedBefore) {
        entry.result = result;
        notify(entry);
      }
      if (entry.again) markStale(entry);
      else if (!entry.shown) forget(entry);
      return result;
    });
    entry.inFlight = asked;
    return asked;
  }

  function forget(entry: Entry) {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
    waitingForTick.delete(entry);
    unwatched.delete(entry);
    // A view that came back since has a new entry under the same key: it stays.
    const key = queryKey(entry.channel, entry.input as never);
    if (entries.get(key) === entry) entries.delete(key);
  }

  /**
   * A watched entry is asked again once the burst of pushes is over, or at once after the person's own
   * write (`now`); an unwatched one is forgotten.
   */
  function markStale(entry: Entry, now = false) {
    entry.stale = true;
    if (entry.inFlight) {
      entry.again = true;
      return;
    }
    if (entry.watchers.size === 0) return forget(entry);
    if (now) return void fetch(entry);
    if (SETTLED_AFTER_TICK.has(entry.channel) && tickRunning()) {
      waitingForTick.add(entry);
      return;
    }
    const at = Date.now();
    if (entry.timer === null) entry.staleSince = at;
    else clearTimeout(entry.timer);
    const quiet = slowRefetchMs[entry.channel] ?? coalesceMs;
    const due = Math.min(at + quiet, entry.staleSince + Math.max(quiet, LONGEST_WAIT_MS));
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (entry.watchers.size > 0) void fetch(entry);
      else if (!entry.inFlight) forget(entry);
    }, due - at);
  }

  function markTargetsStale<P>(targets: readonly StaleTarget<P>[], payload: P, now = false) {
    for (const entry of [...entries.values()]) {
      const hit = targets.some((target) =>
        typeof target === 'string'
          ? target === entry.channel
          : target.channel === entry.channel && target.matches(entry.input, payload),
      );
      if (hit) markStale(entry, now);
    }
  }

  function replace(channel: ReadChannel, input: unknown, value: unknown) {
    const entry = entryOf(channel, input);
    entry.result = { ok: true, value };
    entry.replaced += 1;
    entry.stale = false;
    notify(entry);
  }

  for (const event of Object.keys(staleAfterEvent) as EventName[]) {
    const answers = (answeredByEvent as Partial<Record<EventName, ReadChannel>>)[event];
    api.on(event, (payload: unknown) => {
      if (answers) replace(answers, {}, payload);
      markTargetsStale(staleAfterEvent[event] as readonly StaleTarget<unknown>[], payload);
    });
  }

  return {
    read(channel, input) {
      const entry = entryOf(channel, input);
      if (entry.result && !entry.stale && !entry.inFlight) return Promise.resolve(entry.result as never);
      // The call on its way was sent before a push made it old: the asker gets the one after it.
      if (entry.inFlight && entry.again) return entry.inFlight.then(() => this.read(channel, input));
      return fetch(entry) as never;
    },

    async refetch(channel, input) {
      const entry = entryOf(channel, input);
      if (entry.inFlight) {
        entry.again = true;
        await entry.inFlight;
      }
      return fetch(entry) as never;
    },

    watch(channel, input, changed) {
      const entry = entryOf(channel, input);
      entry.watchers.add(changed);
      entry.shown = true;
      unwatched.delete(entry);
      if (!entry.result || entry.stale) void fetch(entry);
      return () => {
        entry.watchers.delete(changed);
        if (entry.watchers.size > 0) return;
        if (entry.stale && !entry.inFlight) return markStale(entry);
        unwatched.add(entry);
        // A preview asked at every pause in typing leaves an answer per pause: only the newest are kept.
        for (const oldest of unwatched) {
          if (unwatched.size <= KEPT_UNSHOWN) break;
          if (!oldest.inFlight) forget(oldest);
          else unwatched.delete(oldest);
        }
      };
    },

    peek(channel, input) {
      return (entries.get(queryKey(channel, input))?.result ?? null) as never;
    },

    replace,

    markStale(channel) {
      markTargetsStale([channel], undefined);
    },

    async write(channel, input) {
      const result = await call(channel, input);
      if (result.ok) markTargetsStale(staleAfterWrite[channel], undefined, true);
      return result as never;
    },

    on(event, listener) {
      return api.on(event, listener);
    },
  };
}
