import { readMemory, countMemoryKeys, memoryFileText } from './memory-file';
import { pythonUtcIsoFormat } from './python-format';
import type { FileWrite } from '../files/file-write';
import { applyMemoryOp, type MemoryProblem, type MemoryUpdate } from './memory-ops';
import { agentPaths } from '../org/org-layout';

/**
 * What a turn's appends or merges to a key add to the value the key held before the turn; null when
 * the turn set (or deleted, or mixed append and merge on) the key, so the new value is the change.
 */
export type MemoryDelta = { op: 'append'; items: unknown[] } | { op: 'merge'; objects: unknown[] } | null;

export type StagedMemoryChange =
  | {
      key: string;
      effect: 'write';
      operation: 'set' | 'append' | 'merge';
      value: unknown;
      delta: MemoryDelta;
    }
  | { key: string; effect: 'delete' };

/** A memory change as the timeline records it: the appended items or merged objects, or else the new value. */
export type MemoryUpdateEvent = {
  kind: 'memory_update';
  key: string;
  op: string;
  value?: unknown;
  appended?: unknown[];
  merged?: unknown[];
};

export type MemoryChangeOutcome =
  | { ok: true; change: StagedMemoryChange | null; warning?: MemoryProblem }
  | { ok: false; error: MemoryProblem };

/**
 * An agent's memory during one turn: reads see the turn's own earlier changes, and the changes are only
 * staged, to be committed with the rest of the turn (or dropped if it fails).
 */
export class TurnMemory {
  private readonly staged = new Map<string, StagedMemoryChange>();
  private keyCount: number | null = null;

  /** `staged`: the changes a parked turn had made before it parked, so it goes on with them. */
  constructor(
    private readonly agentDir: string,
    staged: readonly StagedMemoryChange[] = [],
  ) {
    for (const change of staged) this.staged.set(change.key, change);
  }

  async read(key: string): Promise<{ found: boolean; value?: unknown; problem?: string }> {
    const change = this.staged.get(key);
    if (change) return change.effect === 'delete' ? { found: false } : { found: true, value: change.value };
    const stored = await readMemory(this.agentDir, key);
    if (!stored.ok) return { found: false, problem: stored.error.message };
    return stored.value ? { found: true, value: stored.value.record.value } : { found: false };
  }

  async apply(update: MemoryUpdate): Promise<MemoryChangeOutcome> {
    const current = await this.read(update.key);
    this.keyCount ??= await countMemoryKeys(this.agentDir);
    const outcome = applyMemoryOp(current.found ? current.value : undefined, update, {
      existingKeyCount: this.keyCount,
    });
    if (!outcome.ok) return outcome;
    if (outcome.effect === 'none') return { ok: true, change: null, warning: outcome.warning };
    const earlier = this.staged.get(update.key);
    const change: StagedMemoryChange =
      outcome.effect === 'delete'
        ? { key: update.key, effect: 'delete' }
        : {
            key: update.key,
            effect: 'write',
            operation: outcome.operation,
            value: outcome.value,
            delta: deltaAfter(earlier, outcome.operation, update.value === undefined ? null : update.value),
          };
    if (!current.found && change.effect === 'write') this.keyCount += 1;
    if (current.found && change.effect === 'delete') this.keyCount -= 1;
    this.staged.set(update.key, change);
    return { ok: true, change };
  }

  changes(): StagedMemoryChange[] {
    return [...this.staged.values()];
  }
}

/** How a committed memory change is recorded: its timeline event fields and the LeMMing memory file it writes. */
export function memoryChangeRecord(
  change: StagedMemoryChange,
  where: { folder: string; agent: string; tick: number; now: Date },
): { event: MemoryUpdateEvent; write: FileWrite } {
  const path = agentPaths(where.folder).memoryFile(change.key);
  if (change.effect === 'delete')
    return {
      event: { kind: 'memory_update', key: change.key, op: 'delete' },
      write: { path, mode: 'delete', content: '' },
    };
  const record = {
    key: change.key,
    value: change.value,
    timestamp_utc: pythonUtcIsoFormat(where.now.getTime() * 1000),
    agent: where.agent,
    operation: change.operation,
    tick: where.tick,
  };
  return {
    event: memoryUpdateEvent(change),
    write: { path, mode: 'write', content: memoryFileText(record) },
  };
}

/** Recording the whole value at each append would grow the timeline with the square of the list's length. */
function memoryUpdateEvent(change: Extract<StagedMemoryChange, { effect: 'write' }>): MemoryUpdateEvent {
  const base = { kind: 'memory_update' as const, key: change.key, op: change.operation };
  if (change.delta?.op === 'append') return { ...base, appended: change.delta.items };
  if (change.delta?.op === 'merge') return { ...base, merged: change.delta.objects };
  return { ...base, value: change.value };
}

function deltaAfter(
  earlier: StagedMemoryChange | undefined,
  operation: 'set' | 'append' | 'merge',
  value: unknown,
): MemoryDelta {
  if (operation === 'set') return null;
  if (earlier === undefined)
    return operation === 'append' ? { op: 'append', items: [value] } : { op: 'merge', objects: [value] };
  if (earlier.effect !== 'write' || earlier.delta?.op !== operation) return null;
  return earlier.delta.op === 'append'
    ? { op: 'append', items: [...earlier.delta.items, value] }
    : { op: 'merge', objects: [...earlier.delta.objects, value] };
}
