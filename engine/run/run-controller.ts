import type { Result } from '../api/result';
import type { RunEndReason, RunLockHolder, RunPhase, RunState, TickReport } from '../api/run-schemas';
import { heldMessage } from '../org/org-lock';
import { storageFailure } from '../timeline/storage-failure';
import { plainFileReason } from './pending-files';
import { TIMELINE_FILE } from './timeline-health';
import type { RunPace } from './tick-schedule';

/** The part of the org engine a run drives: OrgEngine in the app, the CLI and the tests. */
export interface TickRunner {
  /** The tick the next `runTick` runs. */
  currentTick(): Promise<number>;
  /**
   * Takes the org's run lock if it does not have it yet, and keeps it until `releaseRun`. `run` is given
   * for a tick of a run going on its own (not a step): ticks it should have run and did not are missed.
   */
  runTick(signal?: AbortSignal, run?: RunPace | null): Promise<TickReport>;
  /** The run stopped running ticks by the person's or its own doing (not the app closing). */
  recordRunEnded?(reason: RunEndReason | 'paused', message: string): Promise<void>;
  /** How long until an agent's clock schedule is next due; null when none runs by the clock. */
  untilNextClockDue?(): Promise<number | null>;
  releaseRun(): void;
  /** Another program that holds the org's run lock; null when none does. */
  runLockHolder(): RunLockHolder | null;
}

export interface RunStartOptions {
  /** End the run after this many ticks; null or absent for no limit. */
  tickLimit?: number | null;
  /** End the run once this tick has run (org_config.json max_turns); null or absent for no end. */
  lastTick?: number | null;
  /** Pause between ticks; the controller's default when absent. */
  intervalMs?: number;
}

/** Why a command did not do its work; `tickFailed` marks a tick that was run and failed, rather than a command refused. */
export interface RunRefusal {
  reason: string;
  tickFailed?: true;
}

export type RunCommandResult<T = RunState> = Result<T, RunRefusal>;

export interface RunControllerOptions {
  /** Called with a copy of the state after every change. */
  onState?: (state: RunState) => void;
  /** Called when a tick begins, before any turn of it runs. */
  onTickStart?: (tick: number) => void;
  /** Called with each finished tick's report. */
  onTick?: (report: TickReport) => void;
  defaultIntervalMs?: number;
}

type TickOutcome =
  | { kind: 'ran'; report: TickReport }
  | { kind: 'failed'; message: string }
  | { kind: 'past_last_tick'; tick: number };

const PHASE_WORDS: Record<RunPhase, string> = {
  idle: 'idle',
  running: 'running',
  pausing: 'pausing',
  paused: 'paused',
  stepping: 'running one tick',
  stopping: 'stopping',
};

/**
 * Start, pause, resume, step and stop a run of ticks (docs/ARCHITECTURE.md, “The engine”). At most one tick runs at any
 * moment, whatever the order of commands, so no turn is ever staged twice; pausing and stopping let
 * the tick in progress finish, so every turn it starts is committed once.
 */
export class RunController {
  private current: RunState;
  private loop: Promise<void> = Promise.resolve();
  private stepInFlight: Promise<unknown> = Promise.resolve();
  /** True from the moment a tick is begun until its outcome is known. */
  private busy = false;
  /** How a stop asked for ends the run: by the person, or by an error nothing else handled. */
  private stopCause: { reason: RunEndReason; message: string } = { reason: 'stopped', message: 'Stopped.' };
  private wakeUp: (() => void) | null = null;
  /** The app is closing: the run's end is not recorded, so the ticks it does not run are counted as missed. */
  private closing = false;
  private readonly abort = new AbortController();
  /** Cancels the model calls of the tick in progress (stop); a new one for every tick. */
  private tickAbort: AbortController | null = null;

  constructor(
    private readonly runner: TickRunner,
    private readonly options: RunControllerOptions = {},
  ) {
    this.current = {
      phase: 'idle',
      nextTick: null,
      tickInProgress: null,
      ticksRun: 0,
      tickLimit: null,
      lastTick: null,
      intervalMs: options.defaultIntervalMs ?? 0,
      ended: null,
      heldElsewhere: null,
    };
  }

  state(): RunState {
    return { ...this.current };
  }

  /**
   * Reads the next tick from the org again, and whether another program is running it (after something
   * outside this run changed them).
   */
  async refresh(): Promise<RunState> {
    if (!this.busy) {
      const next = await this.runner.currentTick().catch(() => null);
      if (next !== null && !this.busy) this.update({ nextTick: next });
    }
    if (this.current.phase === 'idle') this.update({ heldElsewhere: this.runner.runLockHolder() });
    return this.state();
  }

  start(options: RunStartOptions = {}): RunCommandResult {
    if (this.current.phase !== 'idle')
      return refuse(`A run is already ${PHASE_WORDS[this.current.phase]}; stop it before starting another.`);
    const held = this.heldElsewhere();
    if (held) return held;
    this.update({
      phase: 'running',
      ticksRun: 0,
      tickLimit: options.tickLimit ?? null,
      lastTick: options.lastTick ?? null,
      intervalMs: options.intervalMs ?? this.options.defaultIntervalMs ?? 0,
      ended: null,
    });
    this.loop = this.runLoop();
    return { ok: true, value: this.state() };
  }

  pause(): RunCommandResult {
    switch (this.current.phase) {
      case 'running':
        this.update({ phase: this.busy ? 'pausing' : 'paused' });
        if (!this.busy) this.recordHeld('paused', 'Paused.');
        this.wake();
        return { ok: true, value: this.state() };
      case 'pausing':
      case 'paused':
        return { ok: true, value: this.state() };
      default:
        return refuse(`Nothing to pause: the run is ${PHASE_WORDS[this.current.phase]}.`);
    }
  }

  resume(): RunCommandResult {
    switch (this.current.phase) {
      case 'paused':
      case 'pausing':
        this.update({ phase: 'running' });
        this.wake();
        return { ok: true, value: this.state() };
      case 'running':
        return { ok: true, value: this.state() };
      default:
        return refuse(`Nothing to resume: the run is ${PHASE_WORDS[this.current.phase]}.`);
    }
  }

  /**
   * Ends the run. The tick in progress ends as soon as its model calls are cancelled (an answer being
   * streamed is cut off at once): its turns are committed, those whose call was cancelled as failed. The
   * state says `stopping` until then. Pausing, unlike stopping, lets the tick finish.
   */
  stop(): RunCommandResult {
    this.stopCause = { reason: 'stopped', message: 'Stopped.' };
    return this.stopping();
  }

  /**
   * Ends the run as `stop` does, recorded as ended by an error (`message`): for the engine thread's
   * last resort, when an error nothing handled came up while the org ran.
   */
  stopForError(message: string): RunCommandResult {
    this.stopCause = { reason: 'error', message };
    return this.stopping();
  }

  private stopping(): RunCommandResult {
    switch (this.current.phase) {
      case 'idle':
      case 'stopping':
        return { ok: true, value: this.state() };
      case 'stepping':
        this.update({ phase: 'stopping' });
        this.tickAbort?.abort();
        return { ok: true, value: this.state() };
      default:
        if (this.busy) this.update({ phase: 'stopping' });
        else this.end(this.stopCause.reason, this.stopCause.message);
        this.tickAbort?.abort();
        this.wake();
        return { ok: true, value: this.state() };
    }
  }

  /** Runs exactly one tick while no run is going (idle) or while it is paused. */
  async step(): Promise<RunCommandResult<{ report: TickReport; state: RunState }>> {
    const phase = this.current.phase;
    if ((phase !== 'idle' && phase !== 'paused') || this.busy)
      return refuse(`Cannot step while the run is ${PHASE_WORDS[phase]}; pause it first.`);
    const held = phase === 'idle' ? this.heldElsewhere() : null;
    if (held) return held;
    // A step while no run goes is a run of its own, one tick long: the last run's count and limit end with it.
    this.update({
      phase: 'stepping',
      ...(phase === 'idle' ? { ended: null, ticksRun: 0, tickLimit: null } : {}),
    });
    const running = this.runOne(null);
    this.stepInFlight = running;
    const outcome = await running;
    if (this.current.phase === 'stopping') this.end(this.stopCause.reason, this.stopCause.message);
    else if (outcome.kind === 'failed') this.end('error', outcome.message);
    else this.update({ phase });
    if (this.current.phase === 'idle') this.runner.releaseRun();
    this.wake();
    if (outcome.kind === 'failed') return { ok: false, error: { reason: outcome.message, tickFailed: true } };
    if (outcome.kind === 'past_last_tick') return refuse(`Tick ${outcome.tick} was not run.`);
    return { ok: true, value: { report: outcome.report, state: this.state() } };
  }

  /** Resolves when no tick is running and no run is going. */
  async whenIdle(): Promise<void> {
    await Promise.all([this.loop, this.stepInFlight]);
  }

  /**
   * Ends everything for good (the org is closing): the run is stopped, and the tick in progress is
   * told to give up through its abort signal.
   */
  async dispose(): Promise<void> {
    this.closing = true;
    this.stop();
    this.abort.abort();
    this.wake();
    await this.whenIdle();
  }

  private async runLoop(): Promise<void> {
    for (;;) {
      const phase = this.current.phase;
      if (phase === 'paused' || phase === 'stepping') {
        await this.sleep(null);
        continue;
      }
      if (phase !== 'running') return;
      if (this.endIfAtLimit()) return;
      const { intervalMs } = this.current;
      const outcome = await this.runOne(this.current.lastTick, intervalMs > 0 ? { intervalMs } : null);
      if (outcome.kind === 'failed') return this.end('error', outcome.message);
      if (outcome.kind === 'past_last_tick') return this.endAtLastTick();
      const after = this.current.phase;
      if (after === 'stopping') return this.end(this.stopCause.reason, this.stopCause.message);
      if (after === 'pausing') {
        this.update({ phase: 'paused' });
        this.recordHeld('paused', 'Paused.');
        continue;
      }
      if (after !== 'running') continue;
      if (this.endIfAtLimit()) return;
      await this.sleep(await this.pauseBeforeNextTick());
    }
  }

  /** The interval, or less when an agent's clock schedule is due sooner: it runs at the tick then. */
  private async pauseBeforeNextTick(): Promise<number> {
    const interval = this.current.intervalMs;
    const clock = await this.runner.untilNextClockDue?.().catch(() => null);
    return clock === null || clock === undefined ? interval : Math.max(0, Math.min(interval, clock));
  }

  /** Tells the runner the run stopped running ticks, unless the app is closing (those ticks are missed). */
  private recordHeld(reason: RunEndReason | 'paused', message: string): void {
    if (this.closing || this.current.ticksRun === 0) return;
    void this.runner.recordRunEnded?.(reason, message).catch(() => undefined);
  }

  /** Reads the tick and runs it, unless it is past `lastTick`; reading counts as part of the tick. */
  private async runOne(lastTick: number | null, run: RunPace | null = null): Promise<TickOutcome> {
    this.busy = true;
    try {
      const tick = await this.runner.currentTick();
      if (lastTick !== null && tick > lastTick) {
        this.update({ nextTick: tick });
        return { kind: 'past_last_tick', tick };
      }
      this.tickAbort = new AbortController();
      this.update({ tickInProgress: tick, nextTick: tick });
      this.options.onTickStart?.(tick);
      const report = await this.runner.runTick(
        AbortSignal.any([this.abort.signal, this.tickAbort.signal]),
        run,
      );
      this.update({ tickInProgress: null, nextTick: report.tick + 1, ticksRun: this.current.ticksRun + 1 });
      this.options.onTick?.(report);
      return { kind: 'ran', report };
    } catch (error) {
      this.update({ tickInProgress: null, heldElsewhere: this.runner.runLockHolder() });
      return { kind: 'failed', message: tickFailure(error) };
    } finally {
      this.busy = false;
      this.tickAbort = null;
    }
  }

  private endIfAtLimit(): boolean {
    const { tickLimit, ticksRun, lastTick, nextTick } = this.current;
    if (tickLimit !== null && ticksRun >= tickLimit) {
      this.end('tick_limit', `Ran ${ticksRun} tick${ticksRun === 1 ? '' : 's'}, as asked.`);
      return true;
    }
    if (lastTick !== null && nextTick !== null && nextTick > lastTick) {
      this.endAtLastTick();
      return true;
    }
    return false;
  }

  private endAtLastTick(): void {
    this.end(
      'max_turns',
      `Tick ${this.current.lastTick} is the last one (max_turns in lemming/config/org_config.json).`,
    );
  }

  /** The run ends and lets go of the org, so another program may run it. */
  private end(reason: RunEndReason, message: string): void {
    const atTick = this.current.nextTick === null ? null : this.current.nextTick - 1;
    this.recordHeld(reason, message);
    this.runner.releaseRun();
    this.update({ phase: 'idle', tickInProgress: null, ended: { reason, message, atTick } });
  }

  /** A refusal naming the program that runs the org, if another one does. */
  private heldElsewhere(): { ok: false; error: RunRefusal } | null {
    const holder = this.runner.runLockHolder();
    this.update({ heldElsewhere: holder });
    return holder ? refuse(heldMessage(holder)) : null;
  }

  private sleep(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (timer) clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      const timer = ms === null ? null : setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private wake(): void {
    this.wakeUp?.();
  }

  /** Applies a change and tells `onState`, unless nothing actually changed. */
  private update(change: Partial<RunState>): void {
    const next = { ...this.current, ...change };
    const same = (Object.keys(change) as (keyof RunState)[]).every((key) => next[key] === this.current[key]);
    this.current = next;
    if (!same) this.options.onState?.(this.state());
  }
}

function refuse(reason: string): { ok: false; error: RunRefusal } {
  return { ok: false, error: { reason } };
}

/** Why a tick failed: the timeline's storage and the system's file errors in plain words, anything else in its own. */
function tickFailure(error: unknown): string {
  const storage = storageFailure(error);
  if (storage)
    return `could not ${storage.reading ? 'read' : 'write to'} the timeline (${TIMELINE_FILE}): ${storage.reason}.`;
  const reason = plainFileReason(error);
  if (reason !== null) {
    const path = (error as NodeJS.ErrnoException).path;
    return path === undefined
      ? `a file could not be written: ${reason}.`
      : `could not use ${path}: ${reason}.`;
  }
  return error instanceof Error ? error.message : String(error);
}
