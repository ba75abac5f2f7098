import { ApprovalAnswer, ApprovalRequest } from '../api/approval-schemas';
import type { Result } from '../api/result';
import type { KnownTimelineEvent } from '../api/timeline-events';
import { crashPoint } from '../files/crash-points';
import { parseJsonText } from '../files/json-text';
import { ParkedTurnStore, type ParkedTurnRow } from '../timeline/parked-turn-store';
import type { TimelineStore } from '../timeline/timeline-store';
import type { StagedTurn } from './agent-turn';
import type { ParkedTurnState, ResumedTurn } from './parked-turn-state';

/** What the parked turns need of the engine. */
export interface ParkedTurnsDeps {
  timeline: TimelineStore;
  /** Appends events through the engine's redaction; inside the caller's transaction. */
  appendEvents(events: readonly KnownTimelineEvent[]): number[];
  redact<T>(value: T): T;
  clock: () => Date;
  /** Told when an agent's parked request comes, is answered or goes. */
  changed?: (agent: string) => void;
  /** Told when a request was given its answer (after `changed`). */
  answered?: () => void;
  /**
   * The person's own record (outside the org) of the parked requests they approved: the org's timeline
   * could be written by anyone who wrote the folder, so an approval there counts only if it is here too.
   */
  person: {
    keep(requestId: string, kept: boolean): Promise<Result<unknown, string>>;
    approved(requestId: string): boolean;
  };
}

/** A parked turn that can go on: answered, or past its time (a denial the model reads). */
export interface ReadyTurn {
  turn: string;
  tick: number;
  agent: string;
  parkedSeq: number;
  resumed: ResumedTurn;
}

/** A parked turn whose stored state cannot be read back: it is given up, with the reason. */
export interface UnreadableTurn {
  turn: string;
  tick: number;
  agent: string;
  problem: string;
}

/**
 * Turns parked on an approval request (docs/ARCHITECTURE.md, "Parked turns"): kept in the timeline
 * (redacted) with everything they staged, listed for the person oldest first, given their answer
 * (by the person, from any program, or by the timeout), and handed back to the engine to go on.
 */
export class ParkedTurns {
  private readonly store: ParkedTurnStore;

  constructor(private readonly deps: ParkedTurnsDeps) {
    this.store = new ParkedTurnStore(deps.timeline.db);
  }

  /** Keeps a turn that parked, with its `turn_parked` record, in one transaction. */
  park(turn: StagedTurn & { parked: ParkedTurnState }): number {
    const { request } = turn.parked;
    const seq = this.deps.timeline.transaction(() => {
      const [parkedSeq] = this.deps.appendEvents([
        {
          kind: 'turn_parked',
          request_id: request.id,
          tool: request.tool,
          message: `${turn.agent} waits for you to allow or deny ${request.title ?? request.tool}; the other agents go on.`,
          time: this.deps.clock().toISOString(),
          tick: turn.tick,
          run: turn.runId,
          agent: turn.agent,
          turn: turn.turnId,
        },
      ]) as [number];
      this.store.keep({
        turn: turn.turnId,
        tick: turn.tick,
        agent: turn.agent,
        runId: turn.runId,
        requestId: request.id,
        request: JSON.stringify(this.deps.redact(request)),
        state: JSON.stringify(this.deps.redact(turn.parked)),
        parkedSeq,
      });
      return parkedSeq;
    });
    crashPoint('park:recorded');
    this.deps.changed?.(turn.agent);
    return seq;
  }

  /** The requests waiting for the person, oldest first. */
  requests(): ApprovalRequest[] {
    return this.store
      .all()
      .filter((row) => row.answer === null)
      .flatMap((row) => {
        const request = requestOf(row);
        return request ? [request] : [];
      });
  }

  /** The parked turn of an agent, if it has one: its request and the tick it parked at. */
  waiting(agent: string): { tick: number; request: ApprovalRequest | null } | undefined {
    const row = this.store.all().find((candidate) => candidate.agent === agent);
    return row && { tick: row.tick, request: requestOf(row) };
  }

  /**
   * Gives a waiting request its answer, kept until its turn goes on (an approval in the person's record
   * first); false when none waits under the id, or the approval could not be kept (the error).
   */
  async answer(requestId: string, answer: ApprovalAnswer): Promise<Result<boolean, string>> {
    const row = this.store
      .all()
      .find((candidate) => candidate.requestId === requestId && candidate.answer === null);
    if (!row) return { ok: true, value: false };
    if (answer.answer !== 'deny') {
      const kept = await this.deps.person.keep(requestId, true);
      if (!kept.ok) return kept;
    }
    if (!this.store.answer(requestId, JSON.stringify(this.deps.redact(answer))))
      return { ok: true, value: false };
    this.deps.changed?.(row.agent);
    this.deps.answered?.();
    return { ok: true, value: true };
  }

  /** The person's record of an approved request is no longer needed once its turn went on. */
  async settled(requestId: string): Promise<void> {
    await this.deps.person.keep(requestId, false);
  }

  /**
   * After a restart, each request still waiting is asked again: it counts its time from now, in this
   * run, and the person is told of it as of a new request.
   */
  askAgain(runId: string): void {
    const now = this.deps.clock();
    for (const row of this.store.all()) {
      if (row.answer !== null || row.runId === runId) continue;
      const request = requestOf(row);
      if (!request) continue;
      const waits = Date.parse(request.expires_at) - Date.parse(request.asked_at);
      const renewed = { ...request, expires_at: new Date(now.getTime() + waits).toISOString() };
      this.store.askAgain(row.turn, JSON.stringify(renewed), runId);
      this.deps.changed?.(row.agent);
    }
  }

  /**
   * The parked turns that can go on now, oldest first: those answered, and those past their time,
   * which go on denied (the model reads that no one answered, as when a request times out in a turn).
   * Those whose state cannot be read back are given up.
   */
  ready(): { ready: ReadyTurn[]; unreadable: UnreadableTurn[] } {
    const now = this.deps.clock().getTime();
    const ready: ReadyTurn[] = [];
    const unreadable: UnreadableTurn[] = [];
    for (const row of this.store.all()) {
      const request = requestOf(row);
      const state = parseJsonText(row.state);
      const given = row.answer === null ? null : ApprovalAnswer.safeParse(parseJsonValue(row.answer));
      const where = { turn: row.turn, tick: row.tick, agent: row.agent };
      if (!request || !state.ok || (given && !given.success)) {
        unreadable.push({ ...where, problem: 'its saved state in the timeline cannot be read' });
        continue;
      }
      const answer: ApprovalAnswer | null = given?.success
        ? given.data.answer === 'deny' || this.deps.person.approved(request.id)
          ? given.data
          : {
              answer: 'deny',
              source: 'unattended',
              reason:
                'The approval found in the org’s timeline was not given by the person on this computer, so it was not used.',
            }
        : Date.parse(request.expires_at) <= now
          ? {
              answer: 'deny',
              source: 'timeout',
              reason: `No one answered by ${request.expires_at}, so it was denied.`,
            }
          : null;
      if (!answer) continue;
      ready.push({
        ...where,
        parkedSeq: row.parkedSeq,
        resumed: { state: state.value as ParkedTurnState, answered: { request, answer } },
      });
    }
    return { ready, unreadable };
  }

  /** The turn is no longer parked: inside the transaction that commits it (or gives it up). */
  forget(turn: string): void {
    this.store.forget(turn);
  }
}

function parseJsonValue(text: string): unknown {
  const parsed = parseJsonText(text);
  return parsed.ok ? parsed.value : undefined;
}

function requestOf(row: ParkedTurnRow): ApprovalRequest | null {
  const parsed = ApprovalRequest.safeParse(parseJsonValue(row.request));
  return parsed.success ? parsed.data : null;
}
