import type { EventName, EventPayload } from '../../engine/api/events';

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

  /** Sends a pending timeline ping now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const lastSeq = this.pendingSeq;
    this.pendingSeq = null;
    if (lastSeq !== null) this.emit('timeline.appended', { lastSeq });
  }
}
