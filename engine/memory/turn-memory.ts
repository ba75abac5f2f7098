import { readMemory, countMemoryKeys, memoryFileText } from './memory-file';
import { pythonUtcIsoFormat } from './python-format';
import type { FileWrite } from '../files/file-write';
import { applyMemoryOp, type MemoryProblem, type MemoryUpdate } from './memory-ops';
import { agentPaths } from '../org/org-layout';

export type StagedMemoryChange =
  | { key: string; effect: 'write'; operation: 'set' | 'append' | 'merge'; value: unknown }
  | { key: string; effect: 'delete' };

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

  constructor(private readonly agentDir: string) {}

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
    const change: StagedMemoryChange =
      outcome.effect === 'delete'
        ? { key: update.key, effect: 'delete' }
        : { key: update.key, effect: 'write', operation: outcome.operation, value: outcome.value };
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
): { event: { kind: 'memory_update'; key: string; op: string; value?: unknown }; write: FileWrite } {
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
    event: { kind: 'memory_update', key: change.key, op: change.operation, value: change.value },
    write: { path, mode: 'write', content: memoryFileText(record) },
  };
}
