import type { Result } from '../../api/result';
import type { TextRead } from './patch-filesystem';
import type { PatchFile, ResolvedHunk } from './resolve-patch-paths';
import type { MatchRung } from './seek-sequence';
import { updateFileText } from './update-file';

/** What a file must still hold when the plan is carried out: what planning read, or anything. */
export type ExpectedContent = { kind: 'text'; text: string } | { kind: 'unchecked' };

/** The final state of one file. A delete of a file that is not there does nothing. */
export type PlannedChange =
  | { kind: 'write'; file: PatchFile; text: string; expected: ExpectedContent }
  | { kind: 'delete'; file: PatchFile; expected: ExpectedContent };

export interface PatchSummary {
  added: string[];
  modified: string[];
  deleted: string[];
}

export interface PatchPlan {
  /** One change per file, in the order the patch first touches each file. */
  changes: PlannedChange[];
  summary: PatchSummary;
  /** The matching rung each @@ anchor and chunk needed, in patch order: how much tolerance the patch relied on. */
  rungs: MatchRung[];
}

export type PlanOutcome = Result<PatchPlan, string>;

/** codex's text for a missing file (Rust's io::Error), which models have seen many times. */
const NOT_FOUND = 'No such file or directory (os error 2)';

type Content = Extract<TextRead, { kind: 'text' | 'binary' | 'missing' }>;

interface FileState {
  file: PatchFile;
  /** What the disk held when first read; null when the patch wrote the file before reading it. */
  onDisk: Content | null;
  /** The content after the hunks so far. */
  current: Content;
}

/**
 * Works out the complete result of a patch without writing anything. Hunks apply in order, each seeing
 * the result of the ones before (a file may be added and then updated, or updated twice). As in codex:
 * Add and Move overwrite an existing file, Update and Delete need the file to exist, and the summary
 * lists every Add, then every Update (under its Move destination), then every Delete. Moving a file
 * onto itself is an Update (codex would delete it). Any error stops planning and names the file.
 */
export async function planPatch(
  hunks: readonly ResolvedHunk[],
  read: (path: string) => Promise<TextRead>,
): Promise<PlanOutcome> {
  const files = new Map<string, FileState>();
  const summary: PatchSummary = { added: [], modified: [], deleted: [] };
  const rungs: MatchRung[] = [];

  const currentRead = async (file: PatchFile): Promise<TextRead> => {
    const known = files.get(file.path);
    if (known) return known.current;
    const onDisk = await read(file.path);
    if (onDisk.kind !== 'unreadable') files.set(file.path, { file, onDisk, current: onDisk });
    return onDisk;
  };
  const set = (file: PatchFile, text: string | null) => {
    const known = files.get(file.path);
    const current: Content = text === null ? { kind: 'missing' } : { kind: 'text', text };
    files.set(file.path, { file: known?.file ?? file, onDisk: known?.onDisk ?? null, current });
  };

  for (const hunk of hunks) {
    if (hunk.type === 'add') {
      set(hunk.file, hunk.contents);
      summary.added.push(hunk.file.shown);
      continue;
    }
    const before = await currentRead(hunk.file);
    if (hunk.type === 'delete') {
      if (before.kind !== 'text' && before.kind !== 'binary') {
        return { ok: false, error: `Failed to read ${hunk.file.shown}: ${readFailure(before)}` };
      }
      set(hunk.file, null);
      summary.deleted.push(hunk.file.shown);
      continue;
    }
    if (before.kind !== 'text') {
      return { ok: false, error: `Failed to read file to update ${hunk.file.shown}: ${readFailure(before)}` };
    }
    const updated = updateFileText(before.text, hunk.chunks, hunk.file.shown);
    if (!updated.ok) return updated;
    rungs.push(...updated.value.rungs);
    const destination = hunk.moveTo !== null && hunk.moveTo.path !== hunk.file.path ? hunk.moveTo : null;
    if (destination) {
      set(destination, updated.value.text);
      set(hunk.file, null);
    } else set(hunk.file, updated.value.text);
    summary.modified.push((hunk.moveTo ?? hunk.file).shown);
  }

  const changes = [...files.values()].flatMap((state) => plannedChange(state));
  return {
    ok: true,
    value: {
      changes,
      summary: {
        added: unique(summary.added),
        modified: unique(summary.modified),
        deleted: unique(summary.deleted),
      },
      rungs,
    },
  };
}

function plannedChange({ file, onDisk, current }: FileState): PlannedChange[] {
  const expected: ExpectedContent =
    onDisk?.kind === 'text' ? { kind: 'text', text: onDisk.text } : { kind: 'unchecked' };
  // A binary file is only ever the untouched file on disk: the patch cannot produce one.
  if (current.kind === 'binary') return [];
  if (current.kind === 'text') {
    if (onDisk?.kind === 'text' && onDisk.text === current.text) return [];
    return [{ kind: 'write', file, text: current.text, expected }];
  }
  if (onDisk?.kind === 'missing') return [];
  return [{ kind: 'delete', file, expected }];
}

function readFailure(read: Exclude<TextRead, { kind: 'text' }>): string {
  if (read.kind === 'missing') return NOT_FOUND;
  if (read.kind === 'binary') return 'the file is not UTF-8 text';
  return read.reason;
}

const unique = (items: string[]): string[] => [...new Set(items)];
