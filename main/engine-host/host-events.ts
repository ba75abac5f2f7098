import type { EventName, EventPayload } from '../../engine/api/events';
import type { TurnProgress } from '../../engine/api/model-event-schemas';

export type HostEventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/**
 * The engine host's outgoing events. Timeline pings are coalesced: however many commits land within
 * `pingIntervalMs`, listeners hear one ping with the newest seq, so a busy tick never floods the
 * renderer (it pulls the rows itself).
 */
export class HostEvents {
  private readonly listeners = new Set<HostEventListener>();
  private pendingSeq: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pendingProgress: TurnProgress[] = [];
  private endedTurns: string[] = [];
  /** Agents whose answer pieces went out (or are pending) since their turn last ended. */
  private readonly writing = new Set<string>();
  private progressTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly pingIntervalMs = 50) {}

  on(listener: HostEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of [...this.listeners]) listener(name, payload);
  }

  /** Says that the timeline now reaches `lastSeq`, soon and once for a burst of commits. */
  timelineAppended(lastSeq: number): void {
    this.pendingSeq = Math.max(this.pendingSeq ?? 0, lastSeq);
    this.timer ??= setTimeout(() => this.flush(), this.pingIntervalMs);
  }

  /**
   * Passes on a piece of a model's answer, gathered with the others of the next `pingIntervalMs`; pieces
   * of the same model call that arrive together travel as one.
   */
  turnProgress(progress: TurnProgress): void {
    this.writing.add(progress.agent);
    const last = this.pendingProgress.at(-1);
    if (last && last.turn === progress.turn && last.round === progress.round)
      last.deltas.push(...progress.deltas);
    else this.pendingProgress.push({ ...progress, deltas: [...progress.deltas] });
    this.progressTimer ??= setTimeout(() => this.flushProgress(), this.pingIntervalMs);
  }

  /** The agent's turn committed: its pieces so far go out now, with word that the turn ended. */
  turnEnded(agent: string): void {
    if (!this.writing.delete(agent)) return;
    this.endedTurns.push(agent);
    this.flushProgress();
  }

  private flushProgress(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    const progress = this.pendingProgress;
    const ended = this.endedTurns;
    this.pendingProgress = [];
    this.endedTurns = [];
    if (progress.length > 0 || ended.length > 0) this.emit('turn.progress', { progress, ended });
  }

  /** Sends a pending timeline ping (and pending answer pieces) now. */
  flush(): void {
    this.flushProgress();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const lastSeq = this.pendingSeq;
    this.pendingSeq = null;
    if (lastSeq !== null) this.emit('timeline.appended', { lastSeq });
  }
}
