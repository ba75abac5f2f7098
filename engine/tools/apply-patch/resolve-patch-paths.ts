import type { Result } from '../../api/result';
import type { Hunk, UpdateChunk } from './patch-hunks';

/** What the patch does at a path, for the sandbox to decide on. */
export type PatchPathUse = 'add' | 'update' | 'delete' | 'move_source' | 'move_destination';

/** The value: the path to use. */
export type PathResolution = Result<string, string>;

/** Turns a path as written in the patch into the path to use, or refuses it. */
export type PatchPathResolver = (raw: string, use: PatchPathUse) => PathResolution | Promise<PathResolution>;

/** A path as the patch wrote it (for messages) and as resolved (for I/O). */
export interface PatchFile {
  shown: string;
  path: string;
}

export type ResolvedHunk =
  | { type: 'add'; file: PatchFile; contents: string }
  | { type: 'delete'; file: PatchFile }
  | { type: 'update'; file: PatchFile; moveTo: PatchFile | null; chunks: UpdateChunk[] };

export type ResolveOutcome = Result<ResolvedHunk[], string>;

/**
 * Sends every path of the patch, Move destinations included, through the resolver before anything is
 * read or written. The first refusal stops the whole patch; the error names the path as written.
 */
export async function resolvePatchPaths(
  hunks: readonly Hunk[],
  resolve: PatchPathResolver,
): Promise<ResolveOutcome> {
  const resolved: ResolvedHunk[] = [];
  for (const hunk of hunks) {
    const use: PatchPathUse =
      hunk.type === 'update' ? (hunk.movePath === null ? 'update' : 'move_source') : hunk.type;
    const file = await resolveOne(hunk.path, use, resolve);
    if (!file.ok) return file;
    if (hunk.type !== 'update') {
      resolved.push(
        hunk.type === 'add'
          ? { type: 'add', file: file.value, contents: hunk.contents }
          : { type: 'delete', file: file.value },
      );
      continue;
    }
    let moveTo: PatchFile | null = null;
    if (hunk.movePath !== null) {
      const destination = await resolveOne(hunk.movePath, 'move_destination', resolve);
      if (!destination.ok) return destination;
      moveTo = destination.value;
    }
    resolved.push({ type: 'update', file: file.value, moveTo, chunks: hunk.chunks });
  }
  return { ok: true, value: resolved };
}

async function resolveOne(
  raw: string,
  use: PatchPathUse,
  resolve: PatchPathResolver,
): Promise<Result<PatchFile, string>> {
  const resolution = await resolve(raw, use);
  if (!resolution.ok) return { ok: false, error: `${raw}: ${resolution.error}` };
  return { ok: true, value: { shown: raw, path: resolution.value } };
}
